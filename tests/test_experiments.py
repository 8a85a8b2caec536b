"""treebook.teaching.experiments: folds, standard errors, encodings, truncation = refitting, tuning."""

import numpy as np
import pandas as pd
import pytest

from treebook import C45Classifier, CARTClassifier
from treebook.datasets import load_adult
from treebook.teaching.experiments import (ENCODINGS, alpha_tuner, best_f1_threshold, cross_validate,
                                  depth_scores, encode, fill_missing, grid_tuner, mean_se,
                                  naive_target_encoding, nested_cv, out_of_fold_proba,
                                  read_results, repeated_folds, summarise, write_results)


@pytest.fixture(scope="module")
def adult():
    X, y = load_adult(return_X_y=True)
    X = X.drop(columns=["fnlwgt", "education-num"]).iloc[:1500].reset_index(drop=True)
    return X, y.iloc[:1500].to_numpy()


def test_repeated_folds_partition_each_repeat_and_stratify():
    y = np.array([0] * 30 + [1] * 10)
    folds = repeated_folds(y, n_splits=5, n_repeats=2, random_state=1)
    assert len(folds) == 10
    for r in range(2):
        tests = np.concatenate([f.test for f in folds if f.repeat == r])
        assert np.array_equal(np.sort(tests), np.arange(40))
    for f in folds:
        assert (y[f.test] == 1).sum() == 2 and len(np.intersect1d(f.train, f.test)) == 0
    assert not np.array_equal(folds[0].test, folds[5].test)  # a new shuffle per repeat


def test_mean_se_by_hand():
    m, se = mean_se([1, 2, 3, 4])
    assert m == 2.5 and se == pytest.approx(np.sqrt((5 / 3) / 4))
    # Nadeau-Bengio: (1/J + 1/(k-1)) s^2 with J = 4, k = 2
    assert mean_se([1, 2, 3, 4], n_splits=2)[1] == pytest.approx(np.sqrt((0.25 + 1) * 5 / 3))
    # repeated holdout, 30 test cases per 49 training cases: (1/J + 30/49) s^2
    assert mean_se([1, 2, 3, 4], test_train_ratio=30 / 49)[1] == pytest.approx(
        np.sqrt((0.25 + 30 / 49) * 5 / 3))
    # the k-fold case is the ratio 1/(k-1)
    assert mean_se([1, 2, 3, 4], test_train_ratio=1 / 4)[1] == pytest.approx(
        mean_se([1, 2, 3, 4], n_splits=5)[1])
    with pytest.raises(TypeError):
        mean_se([1, 2, 3], n_splits=3, test_train_ratio=0.5)
    with pytest.raises(ValueError):
        mean_se([1, 2, 3], test_train_ratio=0)


def test_summarise_groups():
    frame = pd.DataFrame({"m": ["a", "a", "b", "b"], "acc": [0.5, 0.7, 0.1, 0.1]})
    table = summarise(frame, "m", ["acc"]).set_index("m")
    assert table.loc["a", "acc"] == pytest.approx(0.6) and table.loc["b", "acc_se"] == 0


@pytest.mark.parametrize("categorical", [True, False])
def test_truncate_gives_the_tree_refitting_gives(adult, categorical):
    X, y = adult
    X = fill_missing(X)
    if not categorical:
        X = X.select_dtypes("number")
    deep = CARTClassifier(max_depth=9, min_samples_leaf=5).fit(X, y)
    for d in (1, 3, 6, 9):
        cut = deep.tree_.truncate(d)
        refit = CARTClassifier(max_depth=d, min_samples_leaf=5).fit(X, y).tree_
        assert cut.node_count == refit.node_count
        for field in ("kind", "feature", "children", "branch_of_code", "depth", "value"):
            assert np.array_equal(getattr(cut, field), getattr(refit, field)), (d, field)
        assert np.array_equal(cut.threshold, refit.threshold, equal_nan=True)


def test_depth_scores_match_refits(adult):
    X, y = adult
    X = fill_missing(X)
    table = depth_scores(CARTClassifier(min_samples_leaf=10), X.iloc[:1000], y[:1000],
                         X.iloc[1000:], y[1000:], [2, 4, 7])
    for d, acc in zip(table["max_depth"], table["accuracy"]):
        refit = CARTClassifier(max_depth=d, min_samples_leaf=10).fit(X.iloc[:1000], y[:1000])
        assert acc == refit.score(X.iloc[1000:], y[1000:])


def test_predict_proba_with_the_full_tree_is_predict_proba(adult):
    X, y = adult
    m = CARTClassifier(max_depth=4).fit(fill_missing(X), y)
    assert np.array_equal(m.predict_proba_with(m.tree_, fill_missing(X)),
                          m.predict_proba(fill_missing(X)))


def test_fill_missing_only_touches_categorical_columns():
    X = pd.DataFrame({"a": ["x", None, "y"], "b": [1.0, np.nan, 2.0]})
    out = fill_missing(X)
    assert out["a"].tolist() == ["x", "missing", "y"] and np.isnan(out["b"][1])
    assert X["a"].isna().sum() == 1  # the input is not changed


def test_integer_and_one_hot_codes():
    X_tr = pd.DataFrame({"c": ["b", "a", None, "b"], "n": [1, 2, 3, 4]})
    X_te = pd.DataFrame({"c": ["a", "zzz"], "n": [5, 6]})
    A, B = encode("integer", X_tr, [0, 1, 0, 1], X_te)
    assert A["c"].tolist() == [1.0, 0.0, 2.0, 1.0]  # a < b < missing, alphabetically
    assert B["c"].tolist() == [0.0, -1.0]           # unseen: -1
    A, B = encode("onehot", X_tr, [0, 1, 0, 1], X_te)
    assert list(A.columns) == ["n", "c_a", "c_b", "c_missing"]
    assert B.loc[1, ["c_a", "c_b", "c_missing"]].sum() == 0


def test_naive_target_encoding_leaks_and_cross_fitting_does_not():
    from sklearn.metrics import roc_auc_score

    rng = np.random.default_rng(0)
    n = 600
    X = pd.DataFrame({"id": [f"p{i}" for i in range(n)]})  # one category per row: no signal
    y = rng.integers(0, 2, n)
    leaky = naive_target_encoding(X, y)
    honest, _ = encode("target", X, y, X.iloc[:5])
    assert roc_auc_score(y, leaky.iloc[:, 0]) > 0.99
    assert abs(roc_auc_score(y, honest.iloc[:, 0]) - 0.5) < 0.1


def test_cross_validate_one_row_per_fold(adult):
    X, y = adult
    folds = repeated_folds(y, 3, 2)
    out = cross_validate(CARTClassifier(max_depth=3), X, y, folds, encoding="category")
    assert len(out) == 6 and out["accuracy"].between(0.6, 1).all()
    assert (out["n_leaves"] <= 8).all() and out["auc"].between(0.5, 1).all()
    c45 = cross_validate(C45Classifier(), X, y, folds[:2], encoding="raw")
    assert len(c45) == 2


def test_nested_cv_tunes_inside_the_training_rows(adult):
    X, y = adult
    X = fill_missing(X)
    tuners = {"grid": grid_tuner(CARTClassifier(), [2, 3, 4], [5, 20], n_splits=2),
              "alpha": alpha_tuner(CARTClassifier(min_samples_leaf=5), cv=3)}
    out = nested_cv(tuners, X, y, repeated_folds(y, 2, 1))
    grid = out[out["tuner"] == "grid"]
    assert grid["max_depth"].isin([2, 3, 4]).all() and grid["min_samples_leaf"].isin([5, 20]).all()
    assert (out.loc[out["tuner"] == "alpha", "ccp_alpha"] >= 0).all() and len(out) == 4


def test_out_of_fold_proba_covers_every_row(adult):
    X, y = adult
    folds = [f for f in repeated_folds(y, 3, 2) if f.repeat == 0]
    p = out_of_fold_proba(CARTClassifier(max_depth=2), fill_missing(X), y, folds)
    assert p.shape == (len(y),) and ((p >= 0) & (p <= 1)).all()
    with pytest.raises(ValueError, match="cover"):
        out_of_fold_proba(CARTClassifier(max_depth=2), fill_missing(X), y, folds[:2])


def test_best_f1_threshold_by_hand():
    # threshold 0.35 predicts 3 positives, 2 right: P = 2/3, R = 1, F1 = 0.8
    t, f1 = best_f1_threshold([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    assert t == 0.35 and f1 == pytest.approx(0.8)


def test_results_files_keep_their_header(tmp_path):
    path = tmp_path / "r.csv"
    write_results(pd.DataFrame({"a": [1, 2]}), path, "python x.py --full")
    lines = path.read_text().splitlines()
    assert lines[0] == "# command: python x.py --full" and lines[1].startswith("# date: ")
    assert lines[2].startswith("# commit: ") and lines[3].startswith("# load average: ")
    back = read_results(path)
    assert back["a"].tolist() == [1, 2] and back.attrs["command"] == "python x.py --full"


def test_results_path_is_the_csv_or_a_file_in_the_folder(tmp_path):
    from treebook.teaching.experiments import results_path

    assert results_path(tmp_path / "a" / "x.csv", "y.csv") == tmp_path / "a" / "x.csv"
    assert results_path(tmp_path / "b", "y.csv") == tmp_path / "b" / "y.csv"
    assert (tmp_path / "a").is_dir() and (tmp_path / "b").is_dir()


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="method"):
        encode("label", pd.DataFrame({"a": ["x"]}), [0], pd.DataFrame({"a": ["x"]}))
    with pytest.raises(TypeError, match="X_train"):
        encode("onehot", np.zeros((2, 2)), [0, 1], pd.DataFrame())
    with pytest.raises(ValueError, match="n_splits"):
        repeated_folds([0, 1, 0, 1], n_splits=1)
    with pytest.raises(ValueError, match="rule"):
        alpha_tuner(CARTClassifier(), rule="2se")
    with pytest.raises(ValueError, match="y_true"):
        best_f1_threshold([0, 2], [0.1, 0.2])
    with pytest.raises(ValueError, match="depths"):
        depth_scores(CARTClassifier(), None, None, None, None, [0, 2])
    assert set(ENCODINGS) == {"raw", "category", "integer", "onehot", "target"}


def test_alpha_tuner_errors_match_pruning_each_fold_tree_at_each_alpha(adult):
    from treebook.prune.cost_complexity import prune_ccp

    X, y = adult
    X, y = fill_missing(X).iloc[:400], y[:400]
    base = CARTClassifier(min_samples_leaf=3)
    fitted, params, table = alpha_tuner(base, cv=3, rule="min", random_state=2)(X, y)
    wrong = np.zeros((len(table), len(y)))
    for f in repeated_folds(y, 3, 1, 2):  # the folds the tuner draws
        fold = CARTClassifier(min_samples_leaf=3).fit(X.iloc[f.train], y[f.train])
        for j, a in enumerate(table["alpha"]):
            wrong[j, f.test] = fold.predict_with(prune_ccp(fold.tree_, float(a)), X.iloc[f.test]) != y[f.test]
    assert np.allclose(table["cv_error"], wrong.mean(axis=1))
    assert params["ccp_alpha"] == table["alpha"][int(np.flatnonzero(
        table["cv_error"] == table["cv_error"].min())[-1])]
    assert fitted.ccp_alpha == params["ccp_alpha"]


def test_threshold_scores_by_hand():
    from treebook.teaching.experiments import threshold_scores

    # score >= 0.5: predictions 1, 1, 0, 0 against 1, 0, 1, 0: TP = FP = FN = TN = 1
    s = threshold_scores([1, 0, 1, 0], [0.9, 0.6, 0.2, 0.1], 0.5)
    assert s["accuracy"] == 0.5 and s["precision"] == 0.5 and s["recall"] == 0.5
    assert s["balanced_accuracy"] == 0.5 and s["f1"] == 0.5 and s["auc"] == 0.75
    # all negative: accuracy 3/4 on a 1-in-4 problem, balanced accuracy 1/2
    s = threshold_scores([1, 0, 0, 0], [0.1, 0.2, 0.3, 0.4], 0.9)
    assert s["accuracy"] == 0.75 and s["balanced_accuracy"] == 0.5 and s["f1"] == 0
