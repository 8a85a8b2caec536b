"""Fitted estimators to JSON and back: one versioned, documented schema.

:func:`to_json` writes a fitted treebook estimator (ID3, C4.5, CLS, CART classifier or
regressor, CHAID) as a JSON text; :func:`from_json` reads it back into an estimator that
predicts exactly what the original predicts (``predict``, ``predict_proba``,
``export_text``, ``to_rules``: every float is written with Python's shortest repr, which
reads back to the same bits). Pickle keeps working as well; JSON is the format to keep,
to read from another language, or to inspect.

Schema, version 2 (``SCHEMA_VERSION``)
--------------------------------------
The document is one JSON object (strict JSON: no ``NaN``/``Infinity`` literals)::

    {
      "format": "treebook-model",
      "schema_version": 2,
      "treebook_version": "0.1.0",          # informative only
      "estimator": "treebook.cart.CARTClassifier",
      "params": {"max_depth": 3, ...},      # get_params(): the constructor arguments
      "fitted": {"tree_": <tree>, "classes_": <value>, "encoder_": <encoder>, ...}
    }

``fitted`` holds every fitted attribute of the estimator (the public names ending in
``_``): trees, the input encoder, ``classes_``, ``n_features_in_``,
``feature_names_in_``, ``target_name_`` … each written as a *value* (below).

A **tree** (``{"type": "tree", ...}``) lists its nodes in depth-first pre-order, the root
first; node ``i`` is ``nodes[i]``::

    {"type": "tree", "is_regression": false, "n_outputs": 2, "n_features": 4,
     "feature_names": ["outlook", ...], "categories": [<value>, ...],
     "classes": <value>, "extra": <value>,
     "nodes": [{"kind": "threshold", "feature": 2, "threshold": 0.5,
                "children": [1, 4],
                "value": [9.0, 5.0], "weighted_n": 14.0, "n_samples": 14,
                "impurity": 0.94}, ...]}

Every node has ``kind``, ``value`` (the weighted class counts ``C_k``, one per class in
the order of ``classes``; for regression one number, the mean response),
``weighted_n`` (``|D|``), ``n_samples`` and ``impurity``. By kind:

* ``"leaf"``: nothing more;
* ``"threshold"``: ``feature`` (column index), ``threshold`` ``t`` and two ``children``:
  ``x <= t`` goes to ``children[0]``, ``x > t`` to ``children[1]``;
* ``"multiway"``: ``feature``, ``children`` (one per branch) and ``branch_of_code``:
  category code ``c`` (the index of the category in ``categories[feature]``) goes to
  ``children[branch_of_code[c]]``; ``-1`` means no branch (a category not seen at that
  node: the case stops there);
* ``"subset"``: like ``"multiway"`` with two children: ``branch_of_code[c]`` is 0 for the
  left subset, 1 for the right, ``-1`` for no branch.

Parents and depths are not stored: they follow from ``children``, and loading checks
that the children form a tree in pre-order.

``"missing_rule"`` is ``null`` except for a tree with a prediction-time rule for a missing
value (NaN) — CART grown with ``missing="learn"`` or ``"surrogate"``, ctree, CHAID —
which it records:
``{"missing_go": [...], "unseen_as_missing": bool, "surrogates": [[...], ...]}``.
``missing_go[i]`` is the branch (0, 1, …, one of node ``i``'s; ``-1``: none, the case
stops) a case missing node ``i``'s feature takes; ``unseen_as_missing`` routes an unseen category the same way;
``surrogates`` is empty or one list per node, each surrogate split an object
``{"feature", "kind": "threshold" | "subset", "agreement", "adjusted", "threshold",
"low_branch", "branch_of_code"}`` (``treebook.core.splits.Surrogate``), tried in order
before ``missing_go``. A document without the key reads as ``null``.

An **encoder** (``{"type": "encoder", ...}``) is ``treebook.core.encoding.FeatureEncoder``:
``names`` (the column names), ``categories`` (per column: the sorted category labels as a
value, or ``null`` for a numeric column), ``from_pandas`` and ``temporal`` (per column
``"datetime64[ns]"``-like text or ``null``).

A **value** is JSON's own ``null``, ``true``/``false``, number or string, or a tagged
object: ``{"type": "array", "dtype": "int64", "shape": [3], "data": [...]}`` (a numpy
array; ``dtype`` ``"object"`` holds labels of mixed type, each itself a value),
``{"type": "float", "value": "nan"}`` (``"nan"``, ``"inf"``, ``"-inf"``),
``{"type": "tuple", "items": [...]}``, ``{"type": "dict", "items": [[key, value], ...]}``
(keys of any scalar type), ``{"type": "scalar", "dtype": "int64", "value": 3}`` (a numpy
scalar), ``{"type": "criterion", "name": "gini"}`` (a registered criterion) and
``{"type": "callable", "name": "treebook.core.impurity.information_gain"}`` (a function of the
package, such as a criterion argument). Anything else cannot be written: :func:`to_json`
raises a ``TypeError`` naming the attribute.

The **bins** of a ``HistCART*`` (``bin_mapper_``, ``{"type": "bins", ...}``) are
``treebook.growers.binning.BinMapper``: per feature the bin ``edges`` (finite, strictly
increasing), the ``lo`` and ``hi`` value of each of its ``len(edges) + 1`` bins, and
``categorical`` (per feature: its bins are its category codes).

A **forest** (``RandomForestClassifier``, ``RandomForestRegressor``,
``BaggingClassifier`` of :mod:`treebook.ensemble`) is a document of the same form whose
``fitted`` holds ``estimators_``: a list of **estimator** values
``{"type": "estimator", "estimator": "treebook.cart.CARTClassifier", "params": {...},
"fitted": {...}}`` (the same three keys as a document; only a tree learner may appear
there, never a forest), beside ``classes_``, ``n_classes_``, ``n_features_in_``,
``n_outputs_`` and the out-of-bag results. Every tree must be of the forest's tree class
and agree with the forest on classes and features. The draws are not kept:
``estimators_samples_`` of a loaded forest raises, because the draws need the training
weights, which a model file does not hold.

Compatibility: a reader of version ``v`` reads every version ``<= v``; a document with a
larger ``schema_version`` is refused with a ``ValueError`` that names both versions.
Version 2 adds ``n_features`` to a tree (the columns its features index; a version-1 tree
has none, and its ``feature_names`` bound the features), and states what version 1
already promised and did not check: loading is safe on untrusted text (see
:func:`from_json`: strict JSON, an allow-list of dtypes, estimators and callables, caps on
sizes checked before any allocation, every tree validated), and every error is a
:class:`~treebook.core.tree_validation.MalformedModelError`. Later changes of this release extend version 2.
"""

from __future__ import annotations

import contextvars
import json
import math
import numbers
import re
from dataclasses import dataclass

import numpy as np

from ..core.tree_validation import MalformedModelError

__all__ = ["SCHEMA_VERSION", "MalformedModelError", "DEFAULT_MAX_NODES", "to_json",
           "from_json", "tree_to_dict", "tree_from_dict", "estimator_to_dict",
           "estimator_from_dict"]

#: the version of the schema this module writes (and the newest it reads)
SCHEMA_VERSION = 2
FORMAT = "treebook-model"

#: default cap on the nodes of one tree, on the entries of one array, and (times
#: ``BYTES_PER_NODE``, plus a megabyte) on the length of a document;
#: ``from_json(max_nodes=)`` raises it
DEFAULT_MAX_NODES = 1_000_000
#: bytes of document allowed per node of ``max_nodes`` (a node takes 150 to 300: a
#: 10^5-node regression tree is 29 MiB)
BYTES_PER_NODE = 512
#: the deepest nesting of tagged values (``tuple`` in ``dict`` in ...) a document may have
MAX_NESTING = 64
#: numpy dtypes an array or scalar may declare (plus unicode text ``<Un``, see below)
ALLOWED_DTYPES = frozenset(
    ["bool", "object", "float16", "float32", "float64"]
    + [f"{s}int{b}" for s in ("", "u") for b in (8, 16, 32, 64)])
#: a text array ``<Un`` may declare a width up to this many characters beyond its longest
#: entry (a declared width is an allocation: ``U100000000`` is 400 MB per entry)
MAX_TEXT_PADDING = 256
_TEXT_DTYPE = re.compile(r"^[<>=|]?U([0-9]{1,9})$")
_TEXT_SCALAR = re.compile(r"^str[0-9]{1,9}$")
_INT64 = (-(2**63), 2**63 - 1)


@dataclass(frozen=True)
class _Limits:
    max_nodes: int = DEFAULT_MAX_NODES

    @property
    def max_items(self) -> int:
        return self.max_nodes

    @property
    def max_bytes(self) -> int:
        return BYTES_PER_NODE * self.max_nodes + 2**20  # a megabyte beside the nodes


_LIMITS = contextvars.ContextVar("treebook_model_limits", default=_Limits())

def _kind_codes():
    from ..core.tree import NodeKind

    names = {int(NodeKind.LEAF): "leaf", int(NodeKind.THRESHOLD): "threshold",
             int(NodeKind.MULTIWAY): "multiway", int(NodeKind.SUBSET): "subset"}
    return names, {v: k for k, v in names.items()}


# ----------------------------------------------------------------------------- values
def _float_out(x: float):
    x = float(x)
    if math.isfinite(x):
        return x
    return {"type": "float", "value": "nan" if math.isnan(x) else ("inf" if x > 0 else "-inf")}


def _encode_value(v, where: str):
    from ..core.criteria import CRITERIA, Criterion

    if v is None or isinstance(v, (bool, str)):
        return v
    if isinstance(v, np.ndarray):
        if v.dtype.kind in "biuf":
            data = v.ravel().tolist()
            if v.dtype.kind == "f":
                data = [_float_out(x) for x in data]
            return {"type": "array", "dtype": v.dtype.name, "shape": list(v.shape),
                    "data": data}
        if v.dtype.kind in "OU":
            return {"type": "array", "dtype": "object" if v.dtype.kind == "O" else v.dtype.str,
                    "shape": list(v.shape),
                    "data": [_encode_value(x, where) for x in v.ravel().tolist()]}
        raise TypeError(f"{where}: a numpy array of dtype {v.dtype} cannot be written to JSON")
    if isinstance(v, np.generic):
        if v.dtype.kind not in "biufU":
            raise TypeError(f"{where}: a numpy scalar of dtype {v.dtype} cannot be written")
        item = v.item()
        return {"type": "scalar", "dtype": v.dtype.name,
                "value": _float_out(item) if isinstance(item, float) else item}
    if isinstance(v, numbers.Integral):
        return int(v)
    if isinstance(v, float):
        return _float_out(v)
    if isinstance(v, tuple):
        return {"type": "tuple", "items": [_encode_value(x, where) for x in v]}
    if isinstance(v, list):
        return [_encode_value(x, where) for x in v]
    if isinstance(v, dict):
        return {"type": "dict", "items": [[_encode_value(k, where), _encode_value(x, where)]
                                          for k, x in v.items()]}
    if isinstance(v, Criterion):
        if CRITERIA.get(v.name) is not v:
            raise TypeError(f"{where}: criterion {v.name!r} is not registered in "
                            "treebook.core.criteria.CRITERIA, so it cannot be named in JSON")
        return {"type": "criterion", "name": v.name}
    if callable(v):
        for name, f in _callables().items():
            if f is v:
                return {"type": "callable", "name": name}
    from ..core.tree import Tree
    from ..core.encoding import FeatureEncoder

    if isinstance(v, Tree):
        return tree_to_dict(v)
    if hasattr(v, "get_params") and f"{type(v).__module__}.{type(v).__qualname__}" \
            in _tree_estimator_classes():
        return {"type": "estimator", **_estimator_body(v, where)}
    from ..growers.binning import BinMapper

    if isinstance(v, BinMapper):
        return {"type": "bins", **{part: [_encode_value(np.asarray(a, dtype=float), where)
                                          for a in getattr(v, part)]
                                   for part in ("edges", "lo", "hi")},
                "categorical": [bool(c) for c in v.categorical]}
    if isinstance(v, FeatureEncoder):
        return {"type": "encoder", "names": list(v.names),
                "categories": [_encode_value(c, where) for c in v.categories],
                "from_pandas": bool(v.from_pandas),
                "temporal": [_encode_value(t, where) for t in v.temporal]}
    raise TypeError(f"{where}: a {type(v).__name__} cannot be written to JSON "
                    "(see treebook.io.serialize for the types a model may hold)")


#: modules of the flat layout before version 0.2.0 (the folder move), by their new names:
#: documents written then name callables such as ``treebook.impurity.information_gain``
LEGACY_MODULES = {
    "treebook.tree": "treebook.core.tree", "treebook.splits": "treebook.core.splits",
    "treebook.criteria": "treebook.core.criteria", "treebook.impurity": "treebook.core.impurity",
    "treebook.encoding": "treebook.core.encoding", "treebook.checks": "treebook.core.checks",
    "treebook.base": "treebook.core.base", "treebook.feature_draw": "treebook.core.feature_draw",
    "treebook.kernels": "treebook.kernels.cart", "treebook.c45_kernels": "treebook.kernels.c45",
    "treebook.grow": "treebook.growers.recursive", "treebook.levelwise": "treebook.growers.levelwise",
    "treebook.multiway": "treebook.growers.multiway", "treebook.bestfirst": "treebook.growers.bestfirst",
    "treebook.sparse_scan": "treebook.growers.sparse", "treebook.c45_fast": "treebook.growers.c45",
    "treebook.serialize": "treebook.io.serialize", "treebook.render": "treebook.io.render",
    "treebook.widgets": "treebook.io.widgets", "treebook.recursive": "treebook.teaching.recursive",
    "treebook.hunt": "treebook.teaching.hunt", "treebook.cart_readable": "treebook.teaching.cart_readable",
    "treebook.published": "treebook.teaching.published",
    "treebook.experiments": "treebook.teaching.experiments",
    "treebook.bias_variance": "treebook.teaching.bias_variance",
    "treebook.c45_tuning": "treebook.teaching.c45_tuning",
}
#: functions that left their module when the big modules were split (0.2.0)
LEGACY_NAMES = {
    **{f"treebook.c45.{n}": f"treebook.growers.c45_search.{n}" for n in (
        "c45_gain", "c45_split_information", "c45_gain_ratio", "min_split_weight",
        "numeric_candidate", "threshold_candidate", "threshold_at", "categorical_candidate",
        "binary_categorical_candidate", "choose_candidate", "c45_split_finder")},
    **{f"treebook.cart.{n}": f"treebook.growers.subsets.{n}" for n in (
        "category_stats", "subset_masks", "subset_split_of_stats")},
    **{f"treebook.cart.{n}": f"treebook.growers.cart_search.{n}" for n in (
        "cart_split_finder", "grow_cart", "learn_split_of_sums", "missing_rule_of_tree")},
    "treebook.cart.surrogate_splits": "treebook.growers.surrogates.surrogate_splits",
    "treebook.cart.naive_best_threshold": "treebook.teaching.cart_readable.naive_best_threshold",
}


def current_name(name: str) -> str:
    """The name a callable of an older document has today (:data:`LEGACY_NAMES`, then
    :data:`LEGACY_MODULES`); a current name is returned unchanged."""
    if name in LEGACY_NAMES:
        return LEGACY_NAMES[name]
    module, _, attr = name.rpartition(".")
    return f"{LEGACY_MODULES[module]}.{attr}" if module in LEGACY_MODULES else name


#: the split measures a document may name as a callable (``CriterionTreeClassifier``'s
#: ``criterion``): pure functions of contingency tables, by their exact names
CALLABLE_NAMES = tuple(f"treebook.core.impurity.{n}" for n in (
    "conditional_entropy", "information_gain", "split_information", "gain_ratio",
    "gini_index", "gini_gain", "conditional_log_likelihood", "g_statistic", "g_test_dof",
    "g_test_pvalue"))


def _callables() -> dict:
    from ..core import impurity

    return {name: getattr(impurity, name.rpartition(".")[2]) for name in CALLABLE_NAMES}


def _tree_estimator_classes() -> dict:
    """The tree learners a document may name, by their exact names (a registry, never an
    import of a name the document spells)."""
    from ..c45 import C45Classifier
    from ..cart import CARTClassifier, CARTRegressor
    from ..chaid import CHAIDClassifier
    from ..cls import CLSClassifier, CriterionTreeClassifier
    from ..ctree import ConditionalTreeClassifier, ConditionalTreeRegressor
    from ..hist import HistCARTClassifier, HistCARTRegressor
    from ..id3 import ID3Classifier
    from ..optimal import OptimalTreeClassifier

    classes = (ID3Classifier, C45Classifier, CLSClassifier, CriterionTreeClassifier,
               CARTClassifier, CARTRegressor, HistCARTClassifier, HistCARTRegressor,
               OptimalTreeClassifier, ConditionalTreeClassifier, ConditionalTreeRegressor,
               CHAIDClassifier)
    return {f"{c.__module__}.{c.__qualname__}": c for c in classes}


def _forest_classes() -> dict:
    """The forests a document may name; their trees are :func:`_tree_estimator_classes`."""
    from ..ensemble import BaggingClassifier, RandomForestClassifier, RandomForestRegressor

    classes = (RandomForestClassifier, RandomForestRegressor, BaggingClassifier)
    return {f"{c.__module__}.{c.__qualname__}": c for c in classes}


def _estimator_classes() -> dict:
    """Every estimator a document may name at its top level: the tree learners and the
    forests."""
    return {**_tree_estimator_classes(), **_forest_classes()}


def _resolve_callable(name: str):
    """The function a document names: one of :data:`CALLABLE_NAMES` (old names through
    :func:`current_name`); anything else is refused, whatever the package holds."""
    found = _callables().get(current_name(name))
    if found is None:
        raise MalformedModelError(
            f"callable {name!r} is not one a model may name (outside the treebook package or "
            f"not a split measure); allowed: {list(CALLABLE_NAMES)}")
    return found


def _resolve_estimator(name: str, where: str = "document", classes=None):
    classes = _estimator_classes() if classes is None else classes
    found = classes.get(current_name(name))
    if found is None:
        raise MalformedModelError(
            f"{where}: 'estimator' {name!r} is not a treebook estimator that may stand "
            f"here (one of {sorted(classes)})")
    return found


def _float_in(x, where):
    if isinstance(x, dict) and x.get("type") == "float":
        names = {"nan": np.nan, "inf": np.inf, "-inf": -np.inf}
        # a list or object as the value is refused like any other (not hashed)
        if not isinstance(x.get("value"), str) or x["value"] not in names:
            raise MalformedModelError(f"{where}: a float must be 'nan', 'inf' or '-inf'; "
                                      f"got {_short(x.get('value'))}")
        return names[x["value"]]
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise MalformedModelError(f"{where}: expected a number; got {_short(x)}")
    try:
        return float(x)
    except OverflowError:
        raise MalformedModelError(f"{where}: {_short(x)} is too large for a float") from None


def _short(v) -> str:
    """``repr(v)`` cut to 60 characters, for messages about hostile values."""
    r = repr(v)
    return r if len(r) <= 60 else r[:57] + "..."


def _need(d, key, where, kind=None):
    if not isinstance(d, dict):
        raise MalformedModelError(f"{where}: expected a JSON object; got {type(d).__name__}")
    if key not in d:
        raise MalformedModelError(f"{where}: missing the key {key!r}")
    v = d[key]
    if kind is not None and (not isinstance(v, kind) or isinstance(v, bool) and kind is not bool):
        names = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
        raise MalformedModelError(f"{where}: {key!r} must be of JSON type {names}; "
                                  f"got {_short(v)}")
    if kind is int and not _INT64[0] <= v <= _INT64[1]:
        raise MalformedModelError(f"{where}: {key!r} = {_short(v)} is out of the 64-bit range")
    return v


def _need_size(d, key, where, low: int, high: int) -> int:
    """An integer field that sizes something: checked against ``low..high`` before any
    allocation depends on it."""
    v = _need(d, key, where, int)
    if not low <= v <= high:
        raise MalformedModelError(f"{where}: {key!r} must be in {low}..{high}; got {v}"
                                  + (" (raise the cap with from_json(max_nodes=...))"
                                     if v > high else ""))
    return v


def _array_dtype(dtype: str, data: list, where: str) -> np.dtype:
    """The numpy dtype an array declares, from the allow-list (``ALLOWED_DTYPES``, or
    text ``<Un`` no wider than its longest entry plus :data:`MAX_TEXT_PADDING`)."""
    text = _TEXT_DTYPE.match(dtype)
    if text:
        if not all(isinstance(x, str) for x in data):
            raise MalformedModelError(f"{where}: a text array ({dtype}) holds strings only")
        longest = max((len(x) for x in data), default=0)
        if int(text.group(1)) > longest + MAX_TEXT_PADDING:
            raise MalformedModelError(
                f"{where}: dtype {dtype!r} is wider than its longest entry ({longest} "
                "characters) allows")
        return np.dtype(dtype)
    if dtype not in ALLOWED_DTYPES:
        raise MalformedModelError(f"{where}: dtype {_short(dtype)} is not allowed in a model "
                                  f"(allowed: {sorted(ALLOWED_DTYPES)} and text '<Un')")
    return np.dtype(dtype)


def _decode_value(v, where: str, depth: int = 0):
    if v is None or isinstance(v, (bool, str, int, float)):
        return v
    if depth > MAX_NESTING:
        raise MalformedModelError(f"{where}: values nested deeper than {MAX_NESTING} levels")
    if isinstance(v, list):
        return [_decode_value(x, f"{where}[{i}]", depth + 1) for i, x in enumerate(v)]
    if not isinstance(v, dict):
        raise MalformedModelError(f"{where}: unexpected JSON value {_short(v)}")
    t = _need(v, "type", where, str)
    if t == "float":
        return _float_in(v, where)
    if t == "array":
        limit = _LIMITS.get().max_items
        dtype = _need(v, "dtype", where, str)
        shape = _need(v, "shape", where, list)
        data = _need(v, "data", where, list)
        if not all(isinstance(s, int) and not isinstance(s, bool) and 0 <= s <= limit
                   for s in shape) or len(shape) > 32:
            raise MalformedModelError(f"{where}: 'shape' must be at most 32 sizes in "
                                      f"0..{limit}; got {_short(shape)}")
        size = math.prod(shape)  # Python integers: no overflow
        if size != len(data):
            raise MalformedModelError(f"{where}: an array of shape {shape} needs {size} "
                                      f"entries; got {len(data)}")
        if size > limit:
            raise MalformedModelError(f"{where}: {size} entries is over the cap of {limit} "
                                      "(raise it with from_json(max_nodes=...))")
        dt = _array_dtype(dtype, data, where)
        if dt.kind == "O":
            out = np.empty(len(data), dtype=object)
            out[:] = [_decode_value(x, f"{where}[{i}]", depth + 1) for i, x in enumerate(data)]
            return out.reshape(shape)
        if dt.kind == "f":
            data = [_float_in(x, f"{where}[{i}]") for i, x in enumerate(data)]
        elif dt.kind in "biu" and not all(
                isinstance(x, int) and (dt.kind != "b" or isinstance(x, bool)) for x in data):
            raise MalformedModelError(f"{where}: an array of dtype {dtype} holds "
                                      f"{'true/false' if dt.kind == 'b' else 'integers'} only")
        try:
            return np.array(data, dtype=dt).reshape(shape)
        except (TypeError, ValueError, OverflowError) as exc:
            raise MalformedModelError(f"{where}: entries do not fit dtype {dtype}: "
                                      f"{exc}") from None
    if t == "scalar":
        dtype = _need(v, "dtype", where, str)
        raw = _need(v, "value", where)
        if _TEXT_SCALAR.match(dtype):
            if not isinstance(raw, str):
                raise MalformedModelError(f"{where}: a text scalar holds a string")
            return np.str_(raw)
        if dtype not in ALLOWED_DTYPES or dtype == "object":
            raise MalformedModelError(f"{where}: scalar dtype {_short(dtype)} is not allowed")
        dt = np.dtype(dtype)
        if dt.kind == "f":
            return dt.type(_float_in(raw, where))
        if not isinstance(raw, int) or (dt.kind == "b") != isinstance(raw, bool):
            raise MalformedModelError(f"{where}: a {dtype} scalar needs "
                                      f"{'true/false' if dt.kind == 'b' else 'an integer'}")
        try:
            return np.array(raw, dtype=dt)[()]
        except (OverflowError, ValueError) as exc:
            raise MalformedModelError(f"{where}: {_short(raw)} does not fit {dtype}: "
                                      f"{exc}") from None
    if t == "tuple":
        return tuple(_decode_value(x, where, depth + 1) for x in _need(v, "items", where, list))
    if t == "dict":
        items = _need(v, "items", where, list)
        if not all(isinstance(p, list) and len(p) == 2 for p in items):
            raise MalformedModelError(f"{where}: a dict's items must be [key, value] pairs")
        out = {}
        for k, x in items:
            key = _decode_value(k, where, depth + 1)
            try:
                hash(key)
            except TypeError:
                raise MalformedModelError(f"{where}: a dict key must be a scalar; got "
                                          f"{type(key).__name__}") from None
            out[key] = _decode_value(x, where, depth + 1)
        return out
    if t == "criterion":
        from ..core.criteria import get_criterion

        return get_criterion(_need(v, "name", where, str))
    if t == "callable":
        return _resolve_callable(_need(v, "name", where, str))
    if t == "tree":
        return tree_from_dict(v, where=where)
    if t == "estimator":  # a forest's tree: a tree learner only, so forests do not nest
        return _estimator_from_body(v, where, _tree_estimator_classes(), depth + 1)
    if t == "bins":
        return _bins_from_dict(v, where, depth)
    if t == "encoder":
        from ..core.encoding import FeatureEncoder

        cats = [_decode_value(c, f"{where}.categories", depth + 1) for c in
                _need(v, "categories", where, list)]
        names = _need(v, "names", where, list)
        temporal = _need(v, "temporal", where, list)
        if len(cats) != len(names):
            raise MalformedModelError(f"{where}: {len(names)} names but {len(cats)} categories")
        if not all(isinstance(n, str) for n in names):
            raise MalformedModelError(f"{where}.names: expected strings")
        if not all(c is None or isinstance(c, np.ndarray) and c.ndim == 1 for c in cats):
            raise MalformedModelError(f"{where}.categories: expected per column null (numeric) "
                                      "or a 1-D array of labels")
        if len(temporal) > len(names) or not all(t is None or isinstance(t, str)
                                                 for t in temporal):
            raise MalformedModelError(f"{where}.temporal: expected at most one null or dtype "
                                      "text per column")
        return FeatureEncoder(tuple(names), tuple(cats),
                              bool(_need(v, "from_pandas", where, bool)), tuple(temporal))
    raise MalformedModelError(f"{where}: unknown value type {_short(t)}")


def _bins_from_dict(v: dict, where: str, depth: int):
    """A ``HistCART*``'s ``bin_mapper_``: per feature its bin ``edges`` (finite, strictly
    increasing) and the ``lo``/``hi`` value of each of its ``len(edges) + 1`` bins."""
    from ..growers.binning import BinMapper

    parts = {}
    for part in ("edges", "lo", "hi"):
        arrays = [_decode_value(a, f"{where}.{part}[{f}]", depth + 1)
                  for f, a in enumerate(_need(v, part, where, list))]
        for f, a in enumerate(arrays):
            if not (isinstance(a, np.ndarray) and a.ndim == 1 and a.dtype == np.float64
                    and np.isfinite(a).all()):
                raise MalformedModelError(f"{where}.{part}[{f}]: expected a 1-D float64 array "
                                          "of finite values")
        parts[part] = tuple(arrays)
    categorical = _need(v, "categorical", where, list)
    m = len(parts["edges"])
    if len(parts["lo"]) != m or len(parts["hi"]) != m or len(categorical) not in (0, m):
        raise MalformedModelError(f"{where}: edges, lo, hi and categorical must have one entry "
                                  f"per feature ({m})")
    if not all(isinstance(c, bool) for c in categorical):
        raise MalformedModelError(f"{where}.categorical: expected true/false per feature")
    for f, e in enumerate(parts["edges"]):
        if e.size and not (np.diff(e) > 0).all():
            raise MalformedModelError(f"{where}.edges[{f}]: edges must increase strictly")
        if parts["lo"][f].size != e.size + 1 or parts["hi"][f].size != e.size + 1:
            raise MalformedModelError(f"{where}.lo[{f}]/hi[{f}]: expected {e.size + 1} bins")
        if e.size + 1 > 65535:
            raise MalformedModelError(f"{where}.edges[{f}]: more than 65535 bins")
    return BinMapper(parts["edges"], parts["lo"], parts["hi"], tuple(categorical))


# ----------------------------------------------------------------------------- trees
def tree_to_dict(tree) -> dict:
    """A :class:`treebook.core.tree.Tree` as the JSON-ready dict of the schema (``"type":
    "tree"``, its nodes in pre-order; see the module docstring)."""
    names, _ = _kind_codes()
    nodes = []
    for i in range(tree.node_count):
        kind = names[int(tree.kind[i])]
        node = {"kind": kind}
        if kind != "leaf":
            node["feature"] = int(tree.feature[i])
            node["children"] = tree.children_of(i).tolist()
        if kind == "threshold":
            node["threshold"] = _float_out(tree.threshold[i])
        if kind in ("multiway", "subset"):
            node["branch_of_code"] = tree.codes_of(i).tolist()
        node["value"] = [_float_out(x) for x in tree.value[i]]
        node["weighted_n"] = _float_out(tree.weighted_n[i])
        node["n_samples"] = int(tree.n_samples[i])
        node["impurity"] = _float_out(tree.impurity[i])
        nodes.append(node)
    where = "tree"
    return {"type": "tree", "is_regression": bool(tree.is_regression),
            "n_outputs": int(tree.value.shape[1]) if tree.value.ndim == 2 else 1,
            "n_features": (len(tree.feature_names) if tree.feature_names
                           else int(tree.feature.max()) + 1),
            "feature_names": [str(n) for n in tree.feature_names],
            "categories": [_encode_value(c, where + ".categories") for c in tree.categories],
            "classes": _encode_value(tree.classes, where + ".classes"),
            "extra": _encode_value(dict(tree.extra), where + ".extra"),
            "missing_rule": _missing_rule_to_dict(tree),
            "nodes": nodes}


def _missing_rule_to_dict(tree):
    """CART's prediction-time rule for missing values (``null`` for the other learners)."""
    if tree.missing_go is None:
        return None
    names, _ = _kind_codes()
    surrogates = []
    for i in range(tree.node_count):
        here = tree.surrogates[i] if i < len(tree.surrogates) else ()
        surrogates.append([
            {"feature": int(s.feature), "kind": names[int(s.kind)],
             "agreement": _float_out(s.agreement), "adjusted": _float_out(s.adjusted),
             "threshold": _float_out(s.threshold), "low_branch": int(s.low_branch),
             "branch_of_code": (None if s.branch_of_code is None
                                else [int(b) for b in s.branch_of_code])}
            for s in here])
    return {"missing_go": [int(g) for g in tree.missing_go],
            "unseen_as_missing": bool(tree.unseen_as_missing),
            "surrogates": surrogates if any(surrogates) else []}


def _missing_rule_from_dict(d, n_nodes, where):
    """The ``missing_go``, ``surrogates`` and ``unseen_as_missing`` fields of a Tree."""
    if d is None:
        return {}
    from ..core.splits import Surrogate
    from ..core.tree import NodeKind

    if not isinstance(d, dict):
        raise MalformedModelError(f"{where}: expected an object or null, got {type(d).__name__}")
    go = _need(d, "missing_go", where, list)
    # a branch index (-1: none); the tree's validation checks it against the node's branches
    if len(go) != n_nodes or not all(isinstance(g, int) and not isinstance(g, bool)
                                     and -1 <= g < 2 ** 62 for g in go):
        raise MalformedModelError(f"{where}.missing_go: expected {n_nodes} branches (-1, 0, 1, …)")
    raw = _need(d, "surrogates", where, list)
    if raw and len(raw) != n_nodes:
        raise MalformedModelError(f"{where}.surrogates: expected one list per node ({n_nodes})")
    _, codes = _kind_codes()
    surrogates = []
    for i, here in enumerate(raw):
        node = []
        if not isinstance(here, list):
            raise MalformedModelError(f"{where}.surrogates[{i}]: expected a list")
        for j, s in enumerate(here):
            at = f"{where}.surrogates[{i}][{j}]"
            kind = _need(s, "kind", at, str)
            if kind not in ("threshold", "subset"):
                raise MalformedModelError(f"{at}.kind: expected 'threshold' or 'subset', got {kind!r}")
            boc = s.get("branch_of_code")
            if boc is not None and not (isinstance(boc, list) and len(boc) <= _LIMITS.get(
                    ).max_items and all(isinstance(b, int) and not isinstance(b, bool)
                                        and -1 <= b <= 1 for b in boc)):
                raise MalformedModelError(f"{at}.branch_of_code: expected null or a list of "
                                          "-1, 0 and 1")
            node.append(Surrogate(
                feature=int(_need(s, "feature", at, int)), kind=NodeKind(codes[kind]),
                agreement=_float_in(_need(s, "agreement", at), at + ".agreement"),
                adjusted=_float_in(_need(s, "adjusted", at), at + ".adjusted"),
                threshold=_float_in(_need(s, "threshold", at), at + ".threshold"),
                low_branch=int(_need(s, "low_branch", at, int)),
                branch_of_code=None if boc is None else np.array(boc, dtype=np.int64)))
        surrogates.append(tuple(node))
    return {"missing_go": np.array(go, dtype=np.int64), "surrogates": tuple(surrogates),
            "unseen_as_missing": bool(_need(d, "unseen_as_missing", where, bool))}


def tree_from_dict(d: dict, where: str = "tree"):
    """The :class:`treebook.core.tree.Tree` a :func:`tree_to_dict` dict describes, with its
    structure checked (a clear ``ValueError`` naming the node and key otherwise)."""
    from ..core.tree import Tree

    _, codes = _kind_codes()
    if _need(d, "type", where, str) != "tree":
        raise MalformedModelError(f"{where}: expected a tree, got type {d['type']!r}")
    limits = _LIMITS.get()
    nodes = _need(d, "nodes", where, list)
    N = len(nodes)
    if N == 0:
        raise MalformedModelError(f"{where}: 'nodes' is empty; a tree has at least its root")
    if N > limits.max_nodes:
        raise MalformedModelError(f"{where}: {N} nodes is over the cap of {limits.max_nodes} "
                                  "(raise it with from_json(max_nodes=...))")
    # every declared size is checked before an allocation depends on it: K entries per
    # node are in the document, so K * N <= its length
    K = _need_size(d, "n_outputs", where, 1, max(1, limits.max_items // N))
    n_features = None
    if "n_features" in d:  # schema 2
        n_features = _need_size(d, "n_features", where, 0, limits.max_items)
    kind = np.zeros(N, np.int8)
    feature = np.full(N, -1, np.int64)
    threshold = np.full(N, np.nan)
    value = np.zeros((N, K))
    weighted_n, impurity = np.zeros(N), np.zeros(N)
    n_samples = np.zeros(N, np.int64)
    children, codes_of = [], []
    for i, node in enumerate(nodes):
        w = f"{where}.nodes[{i}]"
        k = _need(node, "kind", w, str)
        if k not in codes:
            raise MalformedModelError(f"{w}: kind must be one of {sorted(codes)}; got {k!r}")
        kind[i] = codes[k]
        vals = _need(node, "value", w, list)
        if len(vals) != K:
            raise MalformedModelError(f"{w}: 'value' must have n_outputs = {K} entries; got {len(vals)}")
        value[i] = [_float_in(x, f"{w}.value") for x in vals]
        weighted_n[i] = _float_in(_need(node, "weighted_n", w), f"{w}.weighted_n")
        impurity[i] = _float_in(_need(node, "impurity", w), f"{w}.impurity")
        n_samples[i] = _need(node, "n_samples", w, int)
        ch, bc = [], []
        if k != "leaf":
            feature[i] = _need(node, "feature", w, int)
            ch = _need(node, "children", w, list)
            if not ch or not all(isinstance(c, int) and not isinstance(c, bool) for c in ch):
                raise MalformedModelError(f"{w}: 'children' must be a non-empty list of node ids")
        if k == "threshold":
            threshold[i] = _float_in(_need(node, "threshold", w), f"{w}.threshold")
            if len(ch) != 2:
                raise MalformedModelError(f"{w}: a threshold node has 2 children; got {len(ch)}")
        if k in ("multiway", "subset"):
            bc = _need(node, "branch_of_code", w, list)
            if not all(isinstance(b, int) and -1 <= b < len(ch) for b in bc):
                raise MalformedModelError(f"{w}: 'branch_of_code' entries must be -1 or a branch "
                                 f"index below {len(ch)}")
            if k == "subset" and len(ch) != 2:
                raise MalformedModelError(f"{w}: a subset node has 2 children; got {len(ch)}")
        children.append(ch)
        codes_of.append(bc)
    # parents and depths from the children; the children must be a pre-order tree
    parent = np.full(N, -1, np.int64)
    depth = np.zeros(N, np.int64)
    order, stack = [], [0] if N else []
    while stack:
        i = stack.pop()
        order.append(i)
        for c in reversed(children[i]):
            if not 0 <= c < N or c == 0 or parent[c] != -1:
                raise MalformedModelError(f"{where}.nodes[{i}]: child {c} is not a new node id "
                                 f"in 1..{N - 1}")
            parent[c], depth[c] = i, depth[i] + 1
            stack.append(c)
    if order != list(range(N)):
        raise MalformedModelError(f"{where}: the nodes are not one tree listed in depth-first "
                         "pre-order (root first, each branch's subtree before the next)")
    if n_features is not None and np.any(feature >= n_features):
        i = int(np.flatnonzero(feature >= n_features)[0])
        raise MalformedModelError(f"{where}.nodes[{i}]: feature {int(feature[i])} is not below "
                                  f"n_features = {n_features}")
    names = _need(d, "feature_names", where, list)
    if not all(isinstance(n, str) for n in names):
        raise MalformedModelError(f"{where}.feature_names: expected strings")
    if n_features is not None and names and len(names) != n_features:
        raise MalformedModelError(f"{where}: {len(names)} feature_names but n_features = "
                                  f"{n_features}")
    nb = [len(c) for c in children]
    nc = [len(c) for c in codes_of]
    categories = tuple(_decode_value(c, f"{where}.categories")
                       for c in _need(d, "categories", where, list))
    if not all(c is None or isinstance(c, np.ndarray) and c.ndim == 1 for c in categories):
        raise MalformedModelError(f"{where}.categories: expected per feature null (numeric) or "
                                  "a 1-D array of labels")
    classes = _decode_value(_need(d, "classes", where), f"{where}.classes")
    if not (classes is None or isinstance(classes, np.ndarray) and classes.ndim == 1):
        raise MalformedModelError(f"{where}.classes: expected null or a 1-D array")
    extra = _decode_value(_need(d, "extra", where), f"{where}.extra") or {}
    if not isinstance(extra, dict):
        raise MalformedModelError(f"{where}.extra: expected a dict value")
    rule = _missing_rule_from_dict(d.get("missing_rule"), N, f"{where}.missing_rule")
    is_regression = bool(_need(d, "is_regression", where, bool))
    try:
        return Tree(
            kind=kind, feature=feature, threshold=threshold,
            children_ptr=np.concatenate([[0], np.cumsum(nb)]).astype(np.int64),
            children=np.array([c for ch in children for c in ch], dtype=np.int64),
            code_ptr=np.concatenate([[0], np.cumsum(nc)]).astype(np.int64),
            branch_of_code=np.array([b for bc in codes_of for b in bc], dtype=np.int64),
            parent=parent, depth=depth, value=value, weighted_n=weighted_n,
            n_samples=n_samples, impurity=impurity, is_regression=is_regression,
            feature_names=tuple(names), categories=categories, classes=classes, extra=extra,
            **rule)
    except MalformedModelError as exc:  # validate_tree's finding, placed in the document
        raise MalformedModelError(f"{where}: {exc}") from None


# ----------------------------------------------------------------------------- estimators
def _is_forest(estimator) -> bool:
    return f"{type(estimator).__module__}.{type(estimator).__qualname__}" in _forest_classes()


def _estimator_body(estimator, where: str = "estimator") -> dict:
    """``estimator``, ``params`` and ``fitted`` of a fitted estimator (a document's keys,
    and an estimator value's)."""
    from ..core.base import TreeEstimator

    forest = _is_forest(estimator)
    if not (forest or isinstance(estimator, TreeEstimator)):
        raise TypeError(f"{where} must be a treebook estimator; got "
                        f"{type(estimator).__name__}")
    if not hasattr(estimator, "estimators_" if forest else "tree_"):
        from sklearn.exceptions import NotFittedError  # scikit-learn's (a ValueError too)

        raise NotFittedError(f"{where}: this {type(estimator).__name__} is not fitted; "
                             "call fit before to_json")
    cls = type(estimator)
    name = f"{cls.__module__}.{cls.__qualname__}"
    if name not in _estimator_classes():
        raise TypeError(f"{where}: a {name} cannot be written (a model file may name only "
                        f"{sorted(_estimator_classes())})")
    params = {k: _encode_value(v, f"parameter {k!r}")
              for k, v in estimator.get_params().items()}
    fitted = {k: _encode_value(v, f"fitted attribute {k!r}")
              for k, v in vars(estimator).items() if k.endswith("_") and not k.startswith("_")}
    return {"estimator": name, "params": params, "fitted": fitted}


def estimator_to_dict(estimator) -> dict:
    """The JSON-ready dict of a fitted estimator (the whole document of the schema)."""
    from .._version import __version__

    return {"format": FORMAT, "schema_version": SCHEMA_VERSION,
            "treebook_version": __version__, **_estimator_body(estimator)}


def estimator_from_dict(doc: dict):
    """The fitted estimator an :func:`estimator_to_dict` dict describes."""
    if not isinstance(doc, dict):
        raise MalformedModelError(f"a treebook model is a JSON object; got {type(doc).__name__}")
    if doc.get("format") != FORMAT:
        raise MalformedModelError(f"not a treebook model: 'format' must be {FORMAT!r}; "
                         f"got {doc.get('format')!r}")
    version = _need(doc, "schema_version", "document", int)
    if version > SCHEMA_VERSION:
        raise MalformedModelError(f"this model was written with schema_version {version}, newer than "
                         f"the newest this treebook reads ({SCHEMA_VERSION}); upgrade "
                         "treebook to load it")
    if version < 1:
        raise MalformedModelError(f"schema_version must be >= 1; got {version}")
    return _estimator_from_body(doc, "document", _estimator_classes(), 0)


def _estimator_from_body(doc: dict, where: str, classes: dict, depth: int):
    """The fitted estimator of ``estimator``/``params``/``fitted`` (a document, or an
    estimator value inside a forest's ``estimators_``), of one of ``classes``."""
    from ..core.base import TreeEstimator

    cls = _resolve_estimator(_need(doc, "estimator", where, str), where, classes)
    forest = f"{cls.__module__}.{cls.__qualname__}" in _forest_classes()
    params = {k: _decode_value(v, f"{where}.params.{k}", depth + 1)
              for k, v in _need(doc, "params", where, dict).items()}
    est = cls()
    try:
        est.set_params(**params)
        est._check_params() if forest else est._validate_params()
    except (TypeError, ValueError) as exc:
        raise MalformedModelError(f"{where}: 'params': {exc}") from None
    fitted = _need(doc, "fitted", where, dict)
    needed = "estimators_" if forest else "tree_"
    if needed not in fitted:
        raise MalformedModelError(f"{where}: 'fitted' has no {needed!r}")
    for k, v in fitted.items():
        if not k.endswith("_") or k.startswith("_") or not k.isidentifier():
            raise MalformedModelError(f"{where}: 'fitted' key {_short(k)} is not a fitted "
                                      "attribute name")
        if hasattr(cls, k):  # a property or method of the class, not a fitted value
            raise MalformedModelError(f"{where}: 'fitted' key {k!r} names an attribute of "
                                      f"{cls.__name__} that a model file cannot set")
        setattr(est, k, _decode_value(v, f"{where}.fitted.{k}", depth + 1))
    if forest:
        _check_forest(est, where)
    else:
        _check_fitted(est, isinstance(est, TreeEstimator)
                      and getattr(est, "_estimator_type", "") == "regressor")
    return est


def _check_forest(est, where: str) -> None:
    """A forest's fitted attributes agree: ``estimators_`` a non-empty list of trees of
    the forest's tree class, each on ``n_features_in_`` columns and, for a classifier,
    over the forest's ``len(classes_)`` classes (the trees are fitted on class codes)."""
    trees = est.estimators_
    if not isinstance(trees, list) or not trees:
        raise MalformedModelError(f"{where}.fitted.estimators_: expected a non-empty list of "
                                  "estimator values")
    bad = [i for i, t in enumerate(trees) if type(t) is not est._tree_class]
    if bad:
        raise MalformedModelError(f"{where}.fitted.estimators_[{bad[0]}]: expected a "
                                  f"{est._tree_class.__name__}")
    n = getattr(est, "n_features_in_", None)
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 0:
        raise MalformedModelError(f"{where}.fitted.n_features_in_: expected an integer >= 0; "
                                  f"got {_short(n)}")
    for i, t in enumerate(trees):
        if t.n_features_in_ != n:
            raise MalformedModelError(f"{where}.fitted.estimators_[{i}]: {t.n_features_in_} "
                                      f"features, the forest {n}")
    from sklearn.base import is_classifier

    if is_classifier(est):
        classes = getattr(est, "classes_", None)
        if not isinstance(classes, np.ndarray) or classes.ndim != 1 or classes.size == 0:
            raise MalformedModelError(f"{where}.fitted.classes_: expected a 1-D array of labels")
        k = classes.shape[0]
        if getattr(est, "n_classes_", k) != k or isinstance(getattr(est, "n_classes_", k), bool):
            raise MalformedModelError(f"{where}.fitted.n_classes_: expected {k}")
        for i, t in enumerate(trees):
            if t.tree_.n_classes != k:
                raise MalformedModelError(f"{where}.fitted.estimators_[{i}]: a tree over "
                                          f"{t.tree_.n_classes} classes in a forest of {k}")
    names = getattr(est, "feature_names_in_", None)
    if names is not None and np.shape(names) != (n,):
        raise MalformedModelError(f"{where}.fitted.feature_names_in_: expected {n} names")


def _check_fitted(est, regression: bool) -> None:
    """The fitted attributes agree with each other and with the tree: ``tree_`` a Tree of
    the estimator's kind, ``classes_`` one per column of its ``value``, ``n_features_in_``
    = the encoder's columns = the tree's features."""
    from ..core.encoding import FeatureEncoder
    from ..core.tree import Tree

    tree = est.tree_
    if not isinstance(tree, Tree):
        raise MalformedModelError("fitted.tree_: expected a tree value")
    if tree.is_regression != regression:
        raise MalformedModelError(f"fitted.tree_: is_regression is {tree.is_regression} in a "
                                  f"{type(est).__name__}")
    if not regression:
        classes = getattr(est, "classes_", None)
        if not isinstance(classes, np.ndarray) or classes.ndim != 1:
            raise MalformedModelError("fitted.classes_: expected a 1-D array of labels")
        if classes.shape[0] != tree.n_classes:
            raise MalformedModelError(f"fitted.classes_: {classes.shape[0]} labels but the "
                                      f"tree counts {tree.n_classes} classes")
        k = getattr(est, "n_classes_", None)
        if k is not None and (isinstance(k, bool) or k != classes.shape[0]):
            raise MalformedModelError(f"fitted.n_classes_: {_short(k)}, but classes_ has "
                                      f"{classes.shape[0]} labels")
    n = getattr(est, "n_features_in_", None)
    if n is not None and (isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 0):
        raise MalformedModelError(f"fitted.n_features_in_: expected an integer >= 0; got "
                                  f"{_short(n)}")
    encoder = getattr(est, "encoder_", None)
    if encoder is not None:
        if not isinstance(encoder, FeatureEncoder):
            raise MalformedModelError("fitted.encoder_: expected an encoder value")
        if n is not None and encoder.n_features != n:
            raise MalformedModelError(f"fitted.encoder_: {encoder.n_features} columns but "
                                      f"n_features_in_ = {n}")
        n = encoder.n_features
    for key, other in vars(est).items():  # tree_ and the others (full_tree_, ...)
        if not isinstance(other, Tree):
            continue
        if n is not None and int(other.feature.max()) >= n:
            raise MalformedModelError(f"fitted.{key}: tests feature {int(other.feature.max())} "
                                      f"of an input with n_features_in_ = {n} columns")
        if n is not None and other.feature_names and len(other.feature_names) != n:
            raise MalformedModelError(f"fitted.{key}: {len(other.feature_names)} feature_names "
                                      f"but n_features_in_ = {n}")
        if other.is_regression != regression or other.n_classes != tree.n_classes:
            raise MalformedModelError(f"fitted.{key}: not a tree of the same kind as tree_")
    bins = getattr(est, "bin_mapper_", None)
    if bins is not None:
        from ..growers.binning import BinMapper

        if not isinstance(bins, BinMapper):
            raise MalformedModelError("fitted.bin_mapper_: expected a bins value")
        if n is not None and len(bins.edges) != n:
            raise MalformedModelError(f"fitted.bin_mapper_: bins of {len(bins.edges)} features "
                                      f"but n_features_in_ = {n}")
    edges = getattr(est, "bin_edges_", None)
    if edges is not None:  # CHAID's bins of numeric columns: read by every predict
        if not isinstance(edges, tuple) or (n is not None and len(edges) != n):
            raise MalformedModelError(f"fitted.bin_edges_: expected a tuple of {n} entries")
        for j, e in enumerate(edges):
            if e is None:
                continue
            if not (isinstance(e, np.ndarray) and e.ndim == 1 and e.dtype.kind == "f"
                    and np.all(np.isfinite(e)) and np.all(np.diff(e) > 0)):
                raise MalformedModelError(f"fitted.bin_edges_[{j}]: expected null or a 1-D "
                                          "array of finite, increasing floats")
    names = getattr(est, "feature_names_in_", None)
    if names is not None and n is not None and np.shape(names) != (n,):
        raise MalformedModelError(f"fitted.feature_names_in_: expected {n} names")


def to_json(estimator, *, indent: int | None = None) -> str:
    """A fitted treebook estimator as a JSON text (schema version :data:`SCHEMA_VERSION`,
    described in the module docstring). ``indent`` pretty-prints.

    Examples
    --------
    >>> from treebook import ID3Classifier
    >>> from treebook.datasets import load_play_tennis
    >>> X, y = load_play_tennis(return_X_y=True)
    >>> tree = ID3Classifier().fit(X, y)
    >>> text = to_json(tree)
    >>> from_json(text).predict(X.head(3))  # the loaded model predicts as the fitted one
    array(['No', 'No', 'Yes'], dtype=object)
    """
    return json.dumps(estimator_to_dict(estimator), indent=indent, allow_nan=False)


def _reject_constant(name):
    raise MalformedModelError(f"text is not strict JSON: the literal {name} is not allowed "
                              "(a non-finite float is written {\"type\": \"float\", ...})")


def from_json(text, expected=None, *, max_nodes: int = DEFAULT_MAX_NODES):
    """The fitted estimator in ``text`` (a JSON string or bytes written by
    :func:`to_json`).

    The text is untrusted input: it is read as strict JSON (no ``NaN``/``Infinity``
    literals), may name only the package's estimators and split measures (exact names,
    nothing is imported by a name the document spells), may declare only the dtypes of
    ``ALLOWED_DTYPES``, and every size it declares is checked before anything is
    allocated by it; the tree is validated (``treebook.core.tree_validation.validate_tree``)
    and the fitted attributes against it. Anything else is a :class:`~treebook.core.tree_validation.MalformedModelError`
    (a ``ValueError``) that says what is wrong and where, including a newer
    ``schema_version``.

    Parameters
    ----------
    expected : estimator class, optional
        A document holding anything else is a ``TypeError`` (``from_json(text,
        expected=C45Classifier)``).
    max_nodes : int, default :data:`DEFAULT_MAX_NODES`
        The cap on the nodes of a tree and the entries of an array; the text may be at
        most ``BYTES_PER_NODE * max_nodes`` characters plus a megabyte. Raise it for a
        larger model.
    """
    if expected is not None and not isinstance(expected, type):
        raise TypeError(f"expected must be an estimator class or None; got {expected!r}")
    if not isinstance(text, (str, bytes, bytearray)):
        raise TypeError(f"text must be a JSON string; got {type(text).__name__}")
    if isinstance(max_nodes, bool) or not isinstance(max_nodes, numbers.Integral) \
            or max_nodes < 1:
        raise ValueError(f"max_nodes must be an integer >= 1; got {max_nodes!r}")
    limits = _Limits(int(max_nodes))
    if len(text) > limits.max_bytes:
        raise MalformedModelError(
            f"text: {len(text)} characters is over the cap of {limits.max_bytes} "
            f"(1 MiB + {BYTES_PER_NODE} per node of max_nodes={max_nodes}; raise max_nodes "
            "to load it)")
    try:
        doc = json.loads(text, parse_constant=_reject_constant)
    except RecursionError:
        raise MalformedModelError("text: JSON nested too deeply to be a model") from None
    except (ValueError, UnicodeDecodeError) as exc:  # JSONDecodeError; too many digits
        if isinstance(exc, MalformedModelError):
            raise
        raise MalformedModelError(f"text is not valid JSON: {exc}") from None
    token = _LIMITS.set(limits)
    try:
        est = estimator_from_dict(doc)
    except RecursionError:
        raise MalformedModelError("document: values nested too deeply") from None
    finally:
        _LIMITS.reset(token)
    if expected is not None and not isinstance(est, expected):
        raise TypeError(f"text holds a {type(est).__name__}, not a {expected.__name__}")
    return est
