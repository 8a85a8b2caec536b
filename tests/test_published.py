"""The worked-example table: it renders what it was given and refuses what is off."""

import numpy as np
import pytest

from treebook.teaching.published import (PublishedValueMismatch, compare_published, half_unit)


def test_half_unit_of_the_printed_precision():
    assert half_unit("0.971") == pytest.approx(5e-4)
    assert half_unit("3") == 0.5
    assert half_unit("1.5e-3") == pytest.approx(5e-5)


def test_within_tolerance_renders_every_row():
    table = compare_published([("H(D)", "0.971", "Li Hang, ex. 5.2", np.float64(0.97095)),
                               ("g(D,A3)", 0.420, "Li Hang, ex. 5.2", 0.41997, 1e-3)],
                              title="Loan table")
    html = table._repr_html_()
    assert html.count("<tr>") == 3 and "Li Hang, ex. 5.2" in html and "Loan table" in html
    assert table.to_frame()["difference"].abs().max() < 1e-3
    assert "computed 0.97095" in repr(table)
    # the published value is shown as printed, trailing zeros included
    assert "0.970 (Li Hang" in compare_published([("H", "0.970", "Li Hang", 0.9702)])._repr_html_()


def test_out_of_tolerance_raises_naming_the_row():
    with pytest.raises(PublishedValueMismatch, match="H\\(D\\)"):
        compare_published([("H(D)", "0.971", "Li Hang", 0.9725)])


@pytest.mark.parametrize("row, error", [
    (("H", 0.971, "src", 0.971), ValueError),          # float published needs a tolerance
    (("H", "0.971", "src", float("nan")), ValueError),
    (("H", "0.971", "src", "x"), TypeError),
    (("H", "0.971", "src"), ValueError),
    (("H", "0.971", "src", 0.971, -1), ValueError),
])
def test_bad_rows_are_refused(row, error):
    with pytest.raises(error):
        compare_published([row])


def test_empty_is_refused():
    with pytest.raises(ValueError, match="empty"):
        compare_published([])


def test_exact_reproductions_drop_the_zero_columns():
    exact = compare_published([("leaves", 5.0, "J48's output", 5, 0.0),
                               ("size", 8.0, "J48's output", 8, 0.0)])
    html = exact._repr_html_()
    assert exact.exact and "difference" not in html and "tolerance" not in html
    assert "difference" not in repr(exact)
    # one row with a tolerance keeps both columns for every row
    mixed = compare_published([("leaves", 5.0, "J48", 5, 0.0), ("H", "0.970", "Li Hang", 0.9702)])
    assert not mixed.exact
    assert "<th>difference</th>" in mixed._repr_html_() and "<th>tolerance</th>" in mixed._repr_html_()
