"""Shared by the 00-03 example specs: the reference's solution cells, and one of them with a line edited."""
import re
from pathlib import Path

_SRC = Path(__file__).resolve().parents[3] / "source" / "00-03" / "00-03_training_lab_bench.nb.py"
_TEXT = _SRC.read_text()


def solution(grade_id: str) -> str:
    m = re.search(rf"# %% \[solution\] id={grade_id}\n(.*?)(?=\n# %%)", _TEXT, re.S)
    if not m:
        raise KeyError(grade_id)
    return m.group(1).rstrip() + "\n"


def edited(grade_id: str, old: str, new: str) -> str:
    src = solution(grade_id)
    if src.count(old) != 1:
        raise ValueError(f"{old!r} occurs {src.count(old)} times in {grade_id}")
    return src.replace(old, new)


TASKS = ("accumulate", "sgd", "adamw", "schedule", "collate")


def expect_only(*failing: str) -> dict:
    return {t: ("fail" if t in failing else "pass") for t in TASKS}
