"""Domingos's 0-1 bias–variance decomposition against small cases worked by hand."""

import numpy as np
import pytest

from treebook.teaching.bias_variance import bias_variance_01


def test_two_classes_by_hand():
    # five models (rows) predict four test cases (columns) whose true classes are y
    P = np.array([[0, 0, 0, 1],
                  [0, 0, 0, 1],
                  [0, 0, 0, 1],
                  [0, 1, 1, 1],
                  [0, 1, 1, 0]])
    y = np.array([0, 0, 1, 1])
    d = bias_variance_01(P, y)
    # case 0: all right. case 1: main 0 (right), 2 of 5 disagree. case 2: main 0 but the
    # truth is 1 (biased), 2 of 5 disagree and those are right. case 3: main 1, 1 disagrees
    assert d.main_prediction.tolist() == [0, 0, 0, 1]
    assert d.case_bias.tolist() == [0, 0, 1, 0]
    assert np.allclose(d.case_variance, [0, 0.4, 0.4, 0.2])
    assert np.allclose(d.case_loss, [0, 0.4, 0.6, 0.2])
    assert np.isclose(d.bias, 0.25) and np.isclose(d.variance, 0.25)
    assert np.isclose(d.unbiased_variance, 0.15) and np.isclose(d.biased_variance, 0.10)
    assert np.isclose(d.net_variance, 0.05) and np.isclose(d.loss, 0.30)


def test_three_classes_weight_the_biased_variance():
    # truth 2; models say 0, 0, 1, 2: main 0 (biased), V = 1/2, and of the two that
    # disagree with the main prediction one is right, so c = -1/2 and L = 1 - 1/4
    d = bias_variance_01(np.array([[0], [0], [1], [2]]), np.array([2]))
    assert d.bias == 1 and np.isclose(d.variance, 0.5)
    assert np.isclose(d.biased_variance, 0.25) and np.isclose(d.loss, 0.75)
    assert np.isclose(d.loss, d.bias + d.net_variance)


def test_loss_is_bias_plus_net_variance_on_random_predictions():
    rng = np.random.default_rng(0)
    for K in (2, 3, 5):
        P = rng.integers(0, K, size=(7, 200))
        y = rng.integers(0, K, size=200)
        d = bias_variance_01(P, y)
        assert np.isclose(d.loss, np.mean(P != y))
        assert np.isclose(d.loss, d.bias + d.net_variance)


def test_ties_go_to_the_first_class_and_labels_can_be_strings():
    d = bias_variance_01(np.array([["yes"], ["no"]]), np.array(["yes"]))
    assert d.main_prediction.tolist() == ["no"] and d.bias == 1 and d.variance == 0.5
    assert d.as_dict()["net_variance"] == -0.5


def test_one_model_has_no_variance():
    d = bias_variance_01(np.array([[1, 0, 1]]), np.array([1, 1, 1]))
    assert d.variance == 0 and np.isclose(d.bias, 1 / 3) and np.isclose(d.loss, 1 / 3)


@pytest.mark.parametrize("P, y, match", [(np.zeros(3), np.zeros(3), "predictions"),
                                         (np.zeros((2, 3)), np.zeros(2), "y_true"),
                                         (np.zeros((0, 3)), np.zeros(3), "predictions")])
def test_bad_shapes(P, y, match):
    with pytest.raises(ValueError, match=match):
        bias_variance_01(P, y)
