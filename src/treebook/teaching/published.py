"""Worked examples against the literature: one small table per example, and a check.

Every chapter ties its worked examples to the numbers printed in the books and papers
they come from. :func:`compare_published` is the one place that does it: each row names
a quantity, the published value and its source, the value computed here and the
tolerance the printed precision allows (half a unit in the last printed place, unless a
row says otherwise). The result renders as a table for the reader, and building it
raises :class:`PublishedValueMismatch` when any row falls outside its tolerance, so a
chapter whose example no longer adds up fails under ``pytest --nbval`` and ``make book``.

A row's difference is ``computed - published``; it passes when
``|computed - published| <= tolerance``.
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass
from numbers import Real
from typing import Iterable, Sequence

__all__ = ["PublishedValue", "PublishedComparison", "PublishedValueMismatch",
           "compare_published", "half_unit"]


class PublishedValueMismatch(AssertionError):
    """A computed value differs from its published value by more than the tolerance."""


def half_unit(printed: str) -> float:
    """Half a unit in the last place of a number as printed: ``"0.971"`` → 0.0005."""
    if not isinstance(printed, str):
        raise TypeError(f"printed must be the number as a string, got {type(printed).__name__}")
    text = printed.strip().lstrip("+-")
    if "e" in text.lower():
        mantissa, exponent = text.lower().split("e")
        return half_unit(mantissa) * 10.0 ** int(exponent)
    decimals = len(text.split(".")[1]) if "." in text else 0
    return 0.5 * 10.0 ** (-decimals)


@dataclass(frozen=True)
class PublishedValue:
    """One row: ``quantity`` printed as ``published`` in ``source``; ``computed`` here."""

    quantity: str
    published: float
    source: str
    computed: float
    tolerance: float
    #: the published value as printed in the source (keeps "0.970" from becoming 0.97)
    printed: str | None = None

    @property
    def difference(self) -> float:
        return float(self.computed) - float(self.published)

    @property
    def ok(self) -> bool:
        return abs(self.difference) <= self.tolerance


def _number(value, name: str, row: int) -> float:
    if isinstance(value, bool) or not isinstance(value, Real):
        try:
            value = float(value)  # numpy scalars and 0-d arrays
        except (TypeError, ValueError):
            raise TypeError(f"row {row}: {name} must be a real number, "
                            f"got {type(value).__name__}") from None
    value = float(value)
    if math.isnan(value):
        raise ValueError(f"row {row}: {name} is NaN")
    return value


class PublishedComparison:
    """The rows of one worked example, shown as a table (HTML in the book, text elsewhere)."""

    def __init__(self, rows: Sequence[PublishedValue], title: str | None = None):
        self.rows = tuple(rows)
        self.title = title

    @property
    def ok(self) -> bool:
        return all(r.ok for r in self.rows)

    def to_frame(self):
        import pandas as pd

        return pd.DataFrame(
            [(r.quantity, r.published, r.source, r.computed, r.difference, r.tolerance)
             for r in self.rows],
            columns=["quantity", "published", "source", "computed", "difference",
                     "tolerance"])

    @staticmethod
    def _fmt(x: float) -> str:
        return "0" if x == 0 else f"{x:.6g}"

    @property
    def exact(self) -> bool:
        """Every row reproduces its published value exactly, with no tolerance: the table
        then has no difference and tolerance columns (they would hold only zeros)."""
        return all(r.difference == 0 and r.tolerance == 0 for r in self.rows)

    def _repr_html_(self) -> str:
        columns = ("quantity", "published (source)", "computed here")
        if not self.exact:
            columns += ("difference", "tolerance")
        head = "".join(f"<th>{h}</th>" for h in columns)
        body = []
        for r in self.rows:
            cells = [html.escape(r.quantity),
                     f"{html.escape(r.printed or self._fmt(r.published))} "
                     f"({html.escape(r.source)})",
                     f"{r.computed:.6g}"]
            if not self.exact:
                cells += [self._fmt(r.difference), self._fmt(r.tolerance)]
            body.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
        caption = f"<caption>{html.escape(self.title)}</caption>" if self.title else ""
        return (f'<table class="treebook-published">{caption}<thead><tr>{head}</tr></thead>'
                f"<tbody>{''.join(body)}</tbody></table>")

    def __repr__(self) -> str:
        lines = [self.title] if self.title else []
        for r in self.rows:
            line = (f"{r.quantity}: published {r.printed or self._fmt(r.published)} "
                    f"({r.source}), computed {r.computed:.6g}")
            if not self.exact:
                line += (f", difference {self._fmt(r.difference)}, "
                         f"tolerance {self._fmt(r.tolerance)}")
            lines.append(line)
        return "\n".join(lines)


def compare_published(rows: Iterable[Sequence], title: str | None = None) -> PublishedComparison:
    """Compare computed values with published ones; raise if any is out of tolerance.

    ``rows`` holds ``(quantity, published, source, computed)`` or
    ``(quantity, published, source, computed, tolerance)``. ``published`` may be given
    as the string printed in the source (``"0.971"``): the default tolerance is then
    half a unit in its last place (:func:`half_unit`); a number given as a float needs
    an explicit tolerance.
    """
    checked = []
    for i, row in enumerate(rows):
        row = tuple(row)
        if len(row) not in (4, 5):
            raise ValueError(f"row {i}: expected (quantity, published, source, computed"
                             f"[, tolerance]), got {len(row)} fields")
        quantity, published, source, computed = row[:4]
        if not isinstance(quantity, str) or not isinstance(source, str):
            raise TypeError(f"row {i}: quantity and source must be strings")
        if len(row) == 5:
            tolerance = _number(row[4], "tolerance", i)
        elif isinstance(published, str):
            tolerance = half_unit(published)
        else:
            raise ValueError(f"row {i}: published {published!r} is not a printed string, "
                             "so give its tolerance")
        if tolerance < 0:
            raise ValueError(f"row {i}: tolerance must be >= 0, got {tolerance}")
        checked.append(PublishedValue(quantity, _number(published, "published", i), source,
                                      _number(computed, "computed", i), tolerance,
                                      published.strip() if isinstance(published, str) else None))
    if not checked:
        raise ValueError("rows is empty: a comparison needs at least one row")
    result = PublishedComparison(checked, title)
    bad = [r for r in checked if not r.ok]
    if bad:
        raise PublishedValueMismatch("; ".join(
            f"{r.quantity}: computed {r.computed!r}, published {r.published!r} "
            f"({r.source}), |difference| {abs(r.difference):.3g} > {r.tolerance:.3g}"
            for r in bad))
    return result
