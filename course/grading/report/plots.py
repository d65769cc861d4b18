"""The class report's plots: PNG images made with matplotlib's Agg backend, returned as data URIs
so the page needs no other file."""
from __future__ import annotations

import base64
import io

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


def histogram(scores: list[float], max_score: float, title: str) -> str:
    """Distribution of submission scores (points), 0 to the assignment's maximum."""
    with plt.rc_context(STYLE):
        fig, ax = plt.subplots(figsize=(6, 2.8))
        top = max_score or max(scores, default=1.0) or 1.0
        ax.hist(scores, bins=min(20, max(5, len(scores))), range=(0, top), color="#4c72b0", edgecolor="white")
        ax.set_xlim(0, top)
        ax.set_xlabel(f"score (points out of {top:g})")
        ax.set_ylabel("submissions")
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_title(title)
        return _data_uri(fig)


def bars(labels: list[str], values: list[float], xlabel: str, title: str, xmax: float = 100.0) -> str:
    """Horizontal bars, the first label on top (values in percent by default)."""
    with plt.rc_context(STYLE):
        fig, ax = plt.subplots(figsize=(7, 0.8 + 0.28 * max(1, len(labels))))
        y = list(range(len(labels)))
        ax.barh(y, values, color="#c44e52" if "fail" in xlabel else "#55a868")
        ax.set_yticks(y, [_short(t) for t in labels])
        ax.invert_yaxis()
        ax.set_xlim(0, xmax)
        ax.set_xlabel(xlabel)
        ax.set_title(title)
        for i, v in zip(y, values):
            ax.text(v, i, f" {v:.0f}", va="center", fontsize=8)
        return _data_uri(fig)


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"
