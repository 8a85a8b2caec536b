"""Documents written before the folder move (0.1.0, flat layout) still load.

``tests/data/models_v1`` holds one schema-v1 document per learner, written by the flat
layout (its README has the script and the commit); they name callables by their old
module paths (``treebook.impurity.gain_ratio``). Each must load through the loader's
table of old names and predict, on the inputs it was fitted on, what it predicted then.
"""

import json
import pathlib

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_diabetes, load_iris

from treebook.datasets import load_play_tennis
from treebook.io.serialize import (LEGACY_MODULES, LEGACY_NAMES, current_name, from_json,
                                   to_json)

HERE = pathlib.Path(__file__).parent / "data" / "models_v1"


def _inputs():
    X, y = load_play_tennis(return_X_y=True)
    Xi, yi = load_iris(return_X_y=True)
    Xd, yd = load_diabetes(return_X_y=True)
    rng = np.random.default_rng(0)
    Xm = pd.DataFrame({"a": rng.normal(size=60),
                       "c": pd.Categorical(rng.choice(list("xyz"), 60))})
    Xm.loc[::7, "a"] = np.nan
    return {"id3_play_tennis": X, "c45_iris": Xi, "cart_iris": Xi,
            "cart_missing_categorical": Xm, "cart_regressor_diabetes": Xd,
            "cls_play_tennis": X, "criterion_gain_ratio": X}


INPUTS = _inputs()


@pytest.mark.parametrize("name", sorted(INPUTS))
def test_a_document_of_the_flat_layout_loads_and_predicts_as_it_did(name):
    text = (HERE / f"{name}.json").read_text()
    assert '"schema_version": 1' in text
    model = from_json(text)
    expected = json.loads((HERE / f"{name}.predict.json").read_text())
    got = model.predict(INPUTS[name])
    if isinstance(expected[0], float):
        assert np.array_equal(np.asarray(got, float), np.asarray(expected, float))
    else:
        assert [g.item() if hasattr(g, "item") else g for g in got] == expected
    # written again, it names today's modules, and reads back the same
    again = to_json(model)
    assert "treebook.impurity." not in again
    assert np.array_equal(np.asarray(from_json(again).predict(INPUTS[name])), np.asarray(got))


def test_the_old_criterion_name_maps_to_its_new_module():
    doc = json.loads((HERE / "criterion_gain_ratio.json").read_text())
    assert doc["params"]["criterion"] == {"type": "callable",
                                          "name": "treebook.impurity.gain_ratio"}
    from treebook.core.impurity import gain_ratio

    assert from_json(json.dumps(doc)).criterion is gain_ratio


def test_every_entry_of_the_table_names_something_that_exists():
    import importlib

    for old, new in LEGACY_MODULES.items():
        importlib.import_module(new)
        assert not old.startswith(new)
    for old, new in LEGACY_NAMES.items():
        module, _, attr = new.rpartition(".")
        assert callable(getattr(importlib.import_module(module), attr)), new
        assert current_name(old) == new
    assert current_name("treebook.impurity.entropy") == "treebook.core.impurity.entropy"
    assert current_name("treebook.core.impurity.entropy") == "treebook.core.impurity.entropy"
