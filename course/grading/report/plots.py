"""The class report's plots: PNG images made with matplotlib's Agg backend, returned as data URIs
so the page needs no other file."""
from __future__ import annotations

import base64
import io
import math
import textwrap

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)
from matplotlib.ticker import MaxNLocator  # noqa: E402

STYLE = {"text.parse_math": False, "font.size": 9, "axes.spines.top": False, "axes.spines.right": False}


def _data_uri(fig) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, bbox_inches="tight")
    plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def bin_edges(max_score: float, scores: list[float] = ()) -> list[float]:
    """Bars a whole number of points wide, one point wide up to 30 points (two students' 15 and 18 of 26
    never share a bar, whatever the class's size), at most 30 bars, the maximum in the last."""
    top = max_score or max(scores, default=1.0) or 1.0
    width = max(1, math.ceil(top / 30))
    n = max(1, math.ceil(top / width))
    return [min(top, i * width) for i in range(n + 1)]


def histogram(scores: list[float], max_score: float, title: str) -> str:
    """Distribution of submission scores (points), 0 to the assignment's maximum."""
    with plt.rc_context(STYLE):
        fig, ax = plt.subplots(figsize=(6, 2.8))
        edges = bin_edges(max_score, scores)
        top = edges[-1]
        ax.hist(scores, bins=edges, color="#4c72b0", edgecolor="white")
        ax.set_xlim(0, top)
        width = edges[1] - edges[0]
        ax.set_xlabel(f"score (points out of {top:g}; {'one point' if width == 1 else f'{width:g} points'} a bar)")
        ax.set_ylabel("submissions")
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_title(title)
        return _data_uri(fig)


def bars(labels: list[str], values: list[float], xlabel: str, title: str, xmax: float = 100.0) -> str:
    """Horizontal bars, the first label on top (values in percent by default); labels whole, wrapped."""
    wrapped = [wrap(t) for t in labels]
    lines = sum(t.count("\n") + 1 for t in wrapped)
    with plt.rc_context(STYLE):
        fig, ax = plt.subplots(figsize=(8, 0.8 + 0.18 * max(1, lines) + 0.1 * len(labels)))
        y = list(range(len(labels)))
        ax.barh(y, values, color="#c44e52" if "fail" in xlabel else "#55a868")
        ax.set_yticks(y, wrapped)
        ax.invert_yaxis()
        ax.set_xlim(0, xmax)
        ax.set_xlabel(xlabel)
        ax.set_title(title)
        for i, v in zip(y, values):
            ax.text(v, i, f" {v:.0f}", va="center", fontsize=8)
        return _data_uri(fig)


def wrap(text: str, width: int = 48) -> str:
    """A label whole, on lines of at most ``width`` characters (a long word is broken, never cut off)."""
    return "\n".join(textwrap.wrap(text, width, break_long_words=True, break_on_hyphens=False)) or text
