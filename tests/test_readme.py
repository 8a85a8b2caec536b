"""The README: its quick start runs and prints what it promises; it links nowhere outside
the repository; ``make test`` and ``make book`` are in its first lines."""

import re
from pathlib import Path

import pytest

from readme_examples import CHECKS, README, python_blocks, run_block

ROOT = README.parent


@pytest.mark.parametrize("index", range(len(CHECKS)), ids=[c.__name__ for c in CHECKS])
def test_readme_example_runs_and_prints_what_it_promises(index):
    blocks = python_blocks()
    assert len(blocks) == len(CHECKS)
    CHECKS[index](blocks[index], run_block(blocks[index]))


def test_readme_starts_with_the_book_commands():
    head = README.read_text(encoding="utf-8").splitlines()[:40]
    for command in ("make test ", "make book "):
        assert any(line.startswith(command) for line in head), command


def test_readme_links_stay_inside_the_repository():
    text = README.read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)]+)\)", text)
    assert not re.search(r"https?://", text), "the README names no URL"
    headings = {re.sub(r"[^a-z0-9 -]", "", h.lower()).replace(" ", "-")
                for h in re.findall(r"^#+ (.+)$", text, re.M)}
    for target in targets:
        if target.startswith("#"):
            assert target[1:] in headings, target
        else:
            path = (ROOT / target).resolve()
            assert path.is_relative_to(ROOT) and path.exists(), target
    # every file the README names in backticks as a path exists in the repository
    for name in re.findall(r"`((?:book|src|tests|benchmarks)/[^`*\s]+|[A-Z]+\.(?:md|cff)|LICENSE)`",
                           text):
        assert (ROOT / name).exists(), name
