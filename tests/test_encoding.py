"""Input checking and encoding shared by every learner (treebook.core.encoding)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.exceptions import DataConversionWarning

from treebook.core.encoding import FeatureEncoder
from treebook.core.targets import check_sample_weight, encode_labels, encode_targets, label_array


def frame():
    return pd.DataFrame({
        "colour": ["red", "blue", "red", "green"],
        "size": [1.5, 2.0, 3.25, 0.5],
        "flag": [True, False, True, True],
        "grade": pd.Categorical(["b", "a", "c", "a"], categories=["c", "b", "a"]),
    })


def test_column_kinds_categories_and_codes():
    enc, Xe = FeatureEncoder.fit(frame())
    assert enc.names == ("colour", "size", "flag", "grade") and enc.from_pandas
    assert enc.is_categorical.tolist() == [True, False, True, True]
    assert enc.categories[0].tolist() == ["blue", "green", "red"]   # sorted labels
    assert enc.categories[2].tolist() == [False, True]
    assert enc.categories[3].tolist() == ["c", "b", "a"]            # a Categorical's order
    assert Xe[:, 0].tolist() == [2, 0, 2, 1]
    assert Xe[:, 1].tolist() == [1.5, 2.0, 3.25, 0.5]
    assert Xe[:, 3].tolist() == [1, 2, 0, 2]


def test_all_categorical_turns_numbers_into_categories():
    enc, Xe = FeatureEncoder.fit(np.array([[3, 1.5], [1, 1.5], [3, 2.0]]), all_categorical=True)
    assert enc.names == ("x0", "x1") and not enc.from_pandas
    assert enc.categories[0].tolist() == [1, 3] and Xe[:, 0].tolist() == [1, 0, 1]
    # at transform, an unseen value gets code -1
    assert enc.transform(np.array([[3, 2.0], [2, 9.0]])).tolist() == [[1, 1], [-1, -1]]


def test_object_arrays_keep_mixed_labels_and_tuples():
    enc, Xe = FeatureEncoder.fit(np.array([["a", 1], ["b", 2]], dtype=object))
    assert enc.is_categorical.tolist() == [True, False]
    X = pd.DataFrame({"t": [(1, 2), (3, 4), (1, 2)]})
    enc, Xe = FeatureEncoder.fit(X)
    assert enc.categories[0].shape == (2,) and enc.categories[0][1] == (3, 4)
    assert Xe[:, 0].tolist() == [0, 1, 0]
    assert enc.transform(pd.DataFrame({"t": [(3, 4), (5, 6)]}))[:, 0].tolist() == [1, -1]


def test_transform_checks_column_names_like_scikit_learn():
    enc, Xe = FeatureEncoder.fit(frame())
    assert np.array_equal(enc.transform(frame()), Xe)
    # the same names in another order are refused, not silently re-matched (issue 12)
    shuffled = frame()[["grade", "flag", "size", "colour"]]
    with pytest.raises(ValueError, match="Feature names must be in the same order"):
        enc.transform(shuffled)
    with pytest.raises(ValueError, match="unseen at fit time:\n- other\n.*yet now missing:"
                                         "\n- flag\n"):
        enc.transform(frame().drop(columns="flag").assign(other=1))
    with pytest.warns(UserWarning, match="X does not have valid feature names"):
        with pytest.raises(ValueError, match="X has 2 features, but the model is expecting 4 features"):
            enc.transform(np.zeros((3, 2)))
    with pytest.raises(ValueError, match="X column 'size' was numeric in training"):
        enc.transform(frame().assign(size=["a", "b", "c", "d"]))
    with pytest.raises(ValueError, match="X has no rows"):
        enc.transform(frame().iloc[:0])


def test_missing_values():
    X = frame()
    X.loc[1, "colour"] = None
    X.loc[2, "size"] = np.nan
    with pytest.raises(ValueError, match="X column 'colour' has missing values.*use C4.5"):
        FeatureEncoder.fit(X, missing_hint="use C4.5")
    enc, Xe = FeatureEncoder.fit(X, allow_missing=True)
    assert np.isnan(Xe[1, 0]) and np.isnan(Xe[2, 1])
    assert enc.categories[0].tolist() == ["green", "red"]
    with pytest.raises(ValueError, match="only missing values"):
        FeatureEncoder.fit(pd.DataFrame({"a": [None, None]}), allow_missing=True)
    enc, _ = FeatureEncoder.fit(frame())
    with pytest.raises(ValueError, match="missing values"):
        enc.transform(X)


@pytest.mark.parametrize("X, match", [
    (np.zeros(3), "X must be 2-D"),
    (np.zeros((2, 2, 2)), "X must be 2-D"),
    (np.zeros((0, 2)), "X has no rows"),
    (np.zeros((2, 0)), "X has no columns"),
    (pd.DataFrame(index=[0, 1]), "X has no columns"),
    (pd.Series([1, 2]), "Series"),
    (np.array([[1.0], [np.inf]]), "X column 'x0' has infinite values"),
    (np.array([[1.0], [-np.inf]], dtype=object), "infinite"),
    (pd.DataFrame([[1, 2], [3, 4]], columns=["a", "a"]), "duplicate column names"),
])
def test_bad_feature_input(X, match):
    with pytest.raises(ValueError, match=match):
        FeatureEncoder.fit(X)


def test_infinite_categories_are_rejected_even_when_all_categorical():
    with pytest.raises(ValueError, match="infinite"):
        FeatureEncoder.fit(np.array([[1.0], [np.inf]]), all_categorical=True)
    # the text "inf" is an ordinary label
    enc, Xe = FeatureEncoder.fit(pd.DataFrame({"a": ["inf", "x"]}))
    assert enc.categories[0].tolist() == ["inf", "x"]


def test_labels_of_any_hashable_type():
    classes, codes = encode_labels(["b", "a", "b"], 3)
    assert classes.tolist() == ["a", "b"] and codes.tolist() == [1, 0, 1]
    classes, codes = encode_labels(np.array([3, 1, 3]), 3)
    assert classes.dtype.kind == "i" and classes.tolist() == [1, 3]
    classes, _ = encode_labels(pd.Series([True, False]), 2)
    assert classes.dtype == bool
    classes, codes = encode_labels([(1, "a"), (0, "b"), (1, "a")], 3)
    assert classes.shape == (2,) and classes[0] == (0, "b") and codes.tolist() == [1, 0, 1]
    # labels that compare equal but differ in type would merge: refused (issue 12)
    with pytest.raises(ValueError, match="y mixes string and non-string labels"):
        encode_labels(["b", "a", 3], 3)
    with pytest.raises(ValueError, match="y mixes booleans with numbers"):
        encode_labels([1, True, 1.0], 3)
    # a float that is not a whole number is a regression target, as scikit-learn says
    with pytest.raises(ValueError, match="Unknown label type: continuous"):
        encode_labels([1, 2.5, 1], 3)
    classes, _ = encode_labels([1, 2.0, 1], 3)
    assert classes.dtype.kind == "f"
    classes, _ = encode_labels(pd.DataFrame({"y": ["u", "v"]}), 2)
    assert classes.tolist() == ["u", "v"]


@pytest.mark.parametrize("y, n, match", [
    (["a", "b"], 3, "y has 2 labels but X has 3 rows"),
    (np.array([["a", "b"], ["b", "a"]]), 2, "one-dimensional"),
    ([["a"], ["b"]], 2, "one-dimensional"),
    (["a", None], 2, "missing labels"),
    (pd.Series([1.0, np.nan]), 2, "missing labels"),
    ([1.0, np.inf], 2, "infinite"),
    (pd.DataFrame({"a": [1, 2], "b": [1, 2]}), 2, "one column"),
])
def test_bad_labels(y, n, match):
    with pytest.raises(ValueError, match=match):
        encode_labels(y, n)


def test_label_array_keeps_labels_whole():
    assert label_array([(1, 2), (3, 4)]).shape == (2,)
    assert label_array(pd.Series(["a"])).dtype == object


def test_regression_targets():
    assert encode_targets(pd.Series([1, 2]), 2).tolist() == [1.0, 2.0]
    with pytest.warns(DataConversionWarning, match="column-vector y"):
        assert encode_targets(np.array([[1.0], [2.0]]), 2).tolist() == [1.0, 2.0]
    for y, match in [([1.0, np.nan], "NaN or infinite"), (["a", "b"], "numbers"),
                     ([1.0], "1 values but X has 2"), (np.zeros((2, 2)), "one-dimensional")]:
        with pytest.raises(ValueError, match=match):
            encode_targets(y, 2)


def test_sample_weight_checks():
    assert check_sample_weight(None, 3).tolist() == [1, 1, 1]
    assert check_sample_weight([0, 2, 1], 3).tolist() == [0, 2, 1]
    for w, match in [([1, 1], "one weight per row"), ([1, -1, 1], "negative"),
                     ([1, np.nan, 1], "NaN"), ([0, 0, 0], "sums to zero"),
                     ([[1, 1, 1]], "one weight per row")]:
        with pytest.raises(ValueError, match=match):
            check_sample_weight(w, 3)


def test_float_matrix_is_used_without_a_copy_and_still_checked():
    """A numeric float matrix is its own encoding: no copy, but the same checks."""
    from treebook.core.encoding import FeatureEncoder

    X = np.arange(12, dtype=float).reshape(4, 3)
    enc, Xe = FeatureEncoder.fit(X)
    assert np.shares_memory(Xe, X) and enc.names == ("x0", "x1", "x2")
    assert not enc.is_categorical.any()
    assert np.shares_memory(enc.transform(X), X)
    bad = X.copy()
    bad[2, 1] = np.inf
    with pytest.raises(ValueError, match="'x1' has infinite values"):
        FeatureEncoder.fit(bad)
    with pytest.raises(ValueError, match="'x1' has infinite values"):
        enc.transform(bad)
    bad[2, 1] = np.nan
    with pytest.raises(ValueError, match="'x1' has missing values.*use C4.5"):
        FeatureEncoder.fit(bad, missing_hint="use C4.5")
    enc2, Xe2 = FeatureEncoder.fit(bad, allow_missing=True)
    assert np.isnan(Xe2[2, 1])
    bad[:, 1] = np.nan
    with pytest.raises(ValueError, match="'x1' has only missing values"):
        FeatureEncoder.fit(bad, allow_missing=True)
    # ID3 treats every column as categories: that path encodes codes, never the raw values
    enc3, Xe3 = FeatureEncoder.fit(X, all_categorical=True)
    assert enc3.is_categorical.all() and not np.shares_memory(Xe3, X)
    assert Xe3[:, 0].tolist() == [0.0, 1.0, 2.0, 3.0]
