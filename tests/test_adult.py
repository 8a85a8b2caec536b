"""UCI Adult, shipped with the package: the raw files' traps are handled, the data checked."""

import gzip

import numpy as np
import pytest

import treebook.datasets as datasets
from treebook.datasets import load_adult


@pytest.fixture(scope="module")
def adult_train():
    return load_adult()


@pytest.fixture(scope="module")
def adult_test():
    return load_adult("test")


def test_uci_row_counts_and_class_balance(adult_train, adult_test):
    # adult.names: adult_train=32561, test=16281; 24.08 % of training rows earn >50K
    assert adult_train.shape == (32561, 15) and adult_test.shape == (16281, 15)
    assert (adult_train["income"] == ">50K").sum() == 7841
    assert (adult_test["income"] == ">50K").sum() == 3846


def test_labels_lose_the_test_files_trailing_dot(adult_test):
    assert set(adult_test["income"]) == {"<=50K", ">50K"}


def test_first_rows_match_the_raw_files(adult_train, adult_test):
    # adult.data line 1 and adult.test line 2 (after "|1x3 Cross validator")
    assert adult_train.iloc[0].tolist() == [39, "State-gov", 77516, "Bachelors", 13, "Never-married",
                                      "Adm-clerical", "Not-in-family", "White", "Male", 2174,
                                      0, 40, "United-States", "<=50K"]
    assert adult_test.iloc[0].tolist() == [25, "Private", 226802, "11th", 7, "Never-married",
                                     "Machine-op-inspct", "Own-child", "Black", "Male", 0, 0,
                                     40, "United-States", "<=50K"]


def test_question_marks_are_missing_and_only_there(adult_train):
    missing = adult_train.isna().sum()
    assert missing[missing > 0].to_dict() == {"workclass": 1836, "occupation": 1843,
                                              "native-country": 583}
    assert not (adult_train.select_dtypes(object) == "?").any().any()


def test_columns_are_typed(adult_train):
    numeric = ["age", "fnlwgt", "education-num", "capital-gain", "capital-loss",
               "hours-per-week"]
    assert all(adult_train[c].dtype == np.int64 for c in numeric)
    assert all(adult_train[c].dtype == object for c in adult_train.columns if c not in numeric)
    # education-num is education recoded one to one
    assert adult_train.groupby("education")["education-num"].nunique().max() == 1


def test_return_X_y(adult_train):
    X, y = load_adult(return_X_y=True)
    assert X.shape == (32561, 14) and y.name == "income" and "Becker" in X.attrs["source"]


def test_bad_split_is_refused():
    with pytest.raises(ValueError, match="split"):
        load_adult("validation")


def test_a_damaged_file_is_detected(monkeypatch):
    real = gzip.decompress

    def flip_one_byte(data):
        raw = bytearray(real(data))
        raw[100] ^= 1
        return bytes(raw)

    monkeypatch.setattr(gzip, "decompress", flip_one_byte)
    with pytest.raises(RuntimeError, match="damaged"):
        datasets.load_adult()
