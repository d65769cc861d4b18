"""``InertOutput``: the kernel's outputs reduced to what a browser cannot run.

Kept: streams (stdout/stderr), errors, and displays and results as text/plain, PNG or JPEG (checked
to be base64 of a PNG or JPEG whose header gives a size of at most MAX_SIDE pixels a side and MAX_PIXELS in
all: a few kilobytes can declare an image that takes gigabytes to decode in the browser that shows the
feedback or the formgrader; with only numeric width/height metadata, at most MAX_SIDE). Everything else (HTML,
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
MAX_SIDE = 10_000
MAX_PIXELS = 25_000_000  # a 5000 x 5000 figure; matplotlib's at 300 dpi are well under
_MIME = re.compile(r"[\w.+/-]{1,80}")


def _text(value) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return "".join(value)
    return None


def _count(value, limit: int = 10**9):
    return value if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < limit else None


def _png_size(raw: bytes) -> tuple[int, int] | None:
    """Width and height from a PNG's first chunk, which must be IHDR."""
    if len(raw) < 24 or raw[12:16] != b"IHDR":
        return None
    return int.from_bytes(raw[16:20], "big"), int.from_bytes(raw[20:24], "big")


def _jpeg_size(raw: bytes) -> tuple[int, int] | None:
    """Width and height from a JPEG's first start-of-frame segment, walking the segments before it."""
    i = 2
    while i + 4 <= len(raw):
        if raw[i] != 0xFF:
            return None
        marker = raw[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker == 0x01 or 0xD0 <= marker <= 0xD8:  # segments without a length
            i += 2
            continue
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            if i + 9 > len(raw):
                return None
            return int.from_bytes(raw[i + 7:i + 9], "big"), int.from_bytes(raw[i + 5:i + 7], "big")
        length = int.from_bytes(raw[i + 2:i + 4], "big")
        if length < 2:
            return None
        i += 2 + length
    return None


def _image(mime: str, value) -> tuple[str | None, str]:
    """The image's base64 text if it is kept, else None and why not."""
    text = _text(value)
    if text is None or not _BASE64.fullmatch(text):
        return None, "not base64"
    try:
        raw = base64.b64decode("".join(text.split()))
    except (binascii.Error, ValueError):
        return None, "not base64"
    if not raw.startswith(IMAGES[mime]):
        return None, f"not a {mime[6:].upper()}"
    size = (_png_size if mime == "image/png" else _jpeg_size)(raw)
    if size is None:
        return None, f"a {mime[6:].upper()} without a readable size"
    w, h = size
    if not (0 < w <= MAX_SIDE and 0 < h <= MAX_SIDE and w * h <= MAX_PIXELS):
        return None, (f"{w} x {h} pixels, over the {MAX_SIDE} a side and {MAX_PIXELS // 10**6} million in all "
                      f"that a graded notebook keeps")
    return text, ""


def _size_metadata(meta, mimes) -> dict:
    out = {}
    for mime in mimes:
        entry = meta.get(mime) if isinstance(meta, dict) else None
        if isinstance(entry, dict):
            dims = {k: entry[k] for k in ("width", "height") if _count(entry.get(k), MAX_SIDE + 1) is not None}
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
    too_big = []
    for mime in IMAGES:
        if mime in data:
            text, why = _image(mime, data[mime])
            if text is not None:
                kept[mime] = text
            elif "pixels" in why:
                too_big.append(f"{mime}: {why}")
    if too_big and not any(m in kept for m in IMAGES):
        note = f"[{'; '.join(too_big)}: image removed]"
        kept["text/plain"] = f"{kept['text/plain']}\n{note}" if "text/plain" in kept else note
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
