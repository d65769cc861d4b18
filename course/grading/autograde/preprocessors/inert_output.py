"""``InertOutput``: the kernel's outputs reduced to what a browser cannot run.

Kept: streams (stdout/stderr), errors, and displays and results as text/plain, PNG or JPEG (checked
to be base64 of a PNG or JPEG, with only numeric width/height metadata). Everything else (HTML,
JavaScript, SVG, markdown, LaTeX, widget views, unknown output types) is removed; a display left
with nothing says what was removed. Prompt numbers must be integers (nbconvert writes them into the
page unescaped), and the notebook keeps no widget state (nbconvert would load a widget renderer).
"""
from __future__ import annotations

import base64
import binascii
import re

from nbformat.v4 import new_output
from nbgrader.preprocessors import NbGraderPreprocessor

IMAGES = {"image/png": b"\x89PNG\r\n\x1a\n", "image/jpeg": b"\xff\xd8\xff"}
KEPT = ("text/plain", *IMAGES)
_BASE64 = re.compile(r"[A-Za-z0-9+/=\s]*")
_MIME = re.compile(r"[\w.+/-]{1,80}")


def _text(value) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return "".join(value)
    return None


def _count(value):
    return value if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 10**9 else None


def _image(mime: str, value) -> str | None:
    text = _text(value)
    if text is None or not _BASE64.fullmatch(text):
        return None
    head = "".join(text[:200].split())[:16]
    try:
        ok = base64.b64decode(head[: len(head) // 4 * 4]).startswith(IMAGES[mime])
    except (binascii.Error, ValueError):
        ok = False
    return text if ok else None


def _size_metadata(meta, mimes) -> dict:
    out = {}
    for mime in mimes:
        entry = meta.get(mime) if isinstance(meta, dict) else None
        if isinstance(entry, dict):
            dims = {k: entry[k] for k in ("width", "height") if _count(entry.get(k)) is not None}
            if dims:
                out[mime] = dims
    return out


def inert(output) -> dict | None:
    """The inert form of one output, or None when nothing of it can be kept."""
    kind = output.get("output_type")
    if kind == "stream":
        name = output.get("name") if output.get("name") in ("stdout", "stderr") else "stdout"
        text = _text(output.get("text"))
        return new_output("stream", name=name, text=text if text is not None else "")
    if kind == "error":
        tb = output.get("traceback")
        tb = [t for t in tb if isinstance(t, str)] if isinstance(tb, list) else []
        return new_output("error", ename=str(output.get("ename", "")), evalue=str(output.get("evalue", "")),
                          traceback=tb)
    if kind not in ("display_data", "execute_result"):
        return None
    data = output.get("data") if isinstance(output.get("data"), dict) else {}
    kept = {}
    if _text(data.get("text/plain")) is not None:
        kept["text/plain"] = _text(data["text/plain"])
    for mime in IMAGES:
        if mime in data and _image(mime, data[mime]) is not None:
            kept[mime] = _image(mime, data[mime])
    if not kept:
        removed = sorted(m if _MIME.fullmatch(str(m)) else "?" for m in data) or ["empty"]
        kept["text/plain"] = (f"[{', '.join(removed[:5])} output removed: graded notebooks keep only text and "
                              f"PNG/JPEG images]")
    meta = _size_metadata(output.get("metadata"), [m for m in kept if m in IMAGES])
    if kind == "execute_result":
        return new_output(kind, data=kept, metadata=meta, execution_count=_count(output.get("execution_count")))
    return new_output(kind, data=kept, metadata=meta)


class InertOutput(NbGraderPreprocessor):
    """Only inert output stays in the graded notebook (and so in feedback and the formgrader)."""

    def preprocess(self, nb, resources):
        nb.metadata.pop("widgets", None)
        for cell in nb.cells:
            if cell.get("cell_type") != "code":
                cell.pop("outputs", None)
                cell.pop("execution_count", None)
                continue
            cell["execution_count"] = _count(cell.get("execution_count"))
            outs = cell.get("outputs") if isinstance(cell.get("outputs"), list) else []
            cell["outputs"] = [o for o in (inert(o) for o in outs if isinstance(o, dict)) if o is not None]
        return nb, resources
