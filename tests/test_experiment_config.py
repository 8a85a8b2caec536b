"""Results headers are data: their ``# config`` line is read as a literal, never run."""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks" / "experiments"))

import forests_common  # noqa: E402

RESULTS = sorted((ROOT / "benchmarks" / "experiments" / "results").glob("*.csv"))
WITH_CONFIG = [p for p in RESULTS if "config" in forests_common.read_csv(p)[1]]


def test_some_committed_results_carry_a_config():
    assert len(WITH_CONFIG) >= 5


@pytest.mark.parametrize("path", WITH_CONFIG, ids=lambda p: p.name)
def test_every_committed_config_reads_as_a_literal_dict(path):
    config = forests_common.read_config(forests_common.read_csv(path)[1])
    assert isinstance(config, dict) and config


@pytest.mark.parametrize("text", ['__import__("os").system("touch /tmp/owned")',
                                  "open('/etc/passwd').read()", "[1, 2]", "{'a': (lambda: 1)}"])
def test_a_crafted_config_is_refused_not_run(text, tmp_path):
    with pytest.raises(ValueError, match="config"):
        forests_common.read_config({"config": text})
    assert not Path("/tmp/owned").exists()


def test_a_header_without_config_is_named():
    with pytest.raises(ValueError, match="no '# config' line"):
        forests_common.read_config({"command": "x"})
