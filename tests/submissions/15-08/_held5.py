"""Helper of the held5_* examples: one edit of a cell of held5_unusual_correct.py (a correct answer that the
verdict run accepts), so that each known-wrong example differs from an accepted answer in exactly one place."""
import runpy
from pathlib import Path

_BASE = runpy.run_path(str(Path(__file__).with_name("held5_unusual_correct.py")))["CELLS"]


def edit(cell, *pairs):
    src = _BASE[cell]
    for old, new in pairs:
        if src.count(old) != 1:
            raise ValueError(f"held5_unusual_correct.py/{cell}: {old!r} occurs {src.count(old)} times")
        src = src.replace(old, new)
    return src
