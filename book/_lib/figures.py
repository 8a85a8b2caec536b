"""Figure helpers shared by the chapters' frame sliders."""

from __future__ import annotations

import io

import matplotlib.pyplot as plt


def svg_markup(fig) -> str:
    """``fig`` as inline ``<svg>`` markup, closed afterwards.

    Saved without matplotlib's RDF metadata block: its namespace and creator URLs would sit
    in the widget state's inline script (``make test-browser`` rejects URLs of other hosts
    there), and its date would change the page at every build.
    """
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight",
                metadata={"Creator": None, "Date": None, "Format": None, "Type": None})
    plt.close(fig)
    text = buf.getvalue()
    return text[text.index("<svg"):]
