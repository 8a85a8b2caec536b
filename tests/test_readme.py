"""The README's five-line example runs and prints the tree it promises."""

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_example_prints_the_play_tennis_tree():
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert len(blocks) == 1 and len(blocks[0].strip().splitlines()) == 5
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(blocks[0], str(README), "exec"), {})
    text = out.getvalue()
    # Mitchell's Figure 3.1: Outlook at the root; Sunny → Humidity; Rain → Wind
    assert text.splitlines()[1].startswith("|--- Outlook = ")
    assert "|   |--- Humidity = High" in text and "|   |--- Wind = Strong" in text
