"""A new topic from an authoring template (``python -m course.authoring.build new``).

    python -m course.authoring.build new 15-11 --template algorithm --title "Custom CUDA kernels"
    python -m course.authoring.build new 15-12 --template capstone  --title "A mini Fabric"

Writes, with one placeholder task that passes every CI check as generated:

    source/<id>/<id>_<slug>.nb.py (+ .ipynb)   the notebook: intro, a worked example, one exercise
    tests/<id>/probes.py, test_<task>.py       its hidden suite
    tests/<id>/contract.md                     every clause of the exercise mapped to its checks
    tests/<id>/mutants.md                      the placeholder's mutation score (measure again: make mutants)
    tests/submissions/<id>/*.py                known-wrong examples and a correct one written differently
    release/<id>/                              the student version

Templates live in course/authoring/templates/<kind>/ (``algorithm``: category A, an algorithm compared with
PyTorch's own; ``capstone``: category E, a stateful system judged by behaviour and resumption).
``course/authoring/templates/TEMPLATE_*.ipynb`` are the same notebooks, built for reading in JupyterLab.
"""
from __future__ import annotations

import re
from pathlib import Path

from .. import REPO_ROOT, SOURCE_DIR, TESTS_DIR

TEMPLATES = Path(__file__).resolve().parent / "templates"
KINDS = ("algorithm", "capstone")
EXAMPLE = {"__TOPIC_ID__": "15-XX", "__TOPIC_TITLE__": "Topic title"}


def slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", title.lower()).strip("_")[:40] or "topic"


def fill(text: str, values: dict) -> str:
    for k, v in values.items():
        text = text.replace(k, v)
    return text


def plan(assignment: str, kind: str, title: str) -> dict[Path, str]:
    """{destination: content} for a new topic (nothing written)."""
    if kind not in KINDS:
        raise SystemExit(f"unknown template {kind!r}; choose one of {', '.join(KINDS)}")
    if not re.fullmatch(r"[0-9A-Za-z][\w-]{0,30}", assignment):
        raise SystemExit(f"not a usable topic id: {assignment!r} (letters, digits, - and _)")
    values = {"__TOPIC_ID__": assignment, "__TOPIC_TITLE__": title}
    src = TEMPLATES / kind
    out: dict[Path, str] = {}
    out[SOURCE_DIR / assignment / f"{assignment}_{slug(title)}.nb.py"] = fill((src / "notebook.nb.py").read_text(), values)
    for p in sorted(src.glob("*.py")):
        if p.name != "notebook.nb.py":
            out[TESTS_DIR / assignment / p.name] = fill(p.read_text(), values)
    out[TESTS_DIR / assignment / "contract.md"] = fill((src / "contract.md").read_text(), values)
    out[TESTS_DIR / assignment / "mutants.md"] = fill((src / "mutants.md").read_text(), values)
    for p in sorted((src / "submissions").glob("*.py")):
        out[TESTS_DIR / "submissions" / assignment / p.name] = fill(p.read_text(), values)
    return out


def create(assignment: str, kind: str, title: str) -> list[Path]:
    """Write the new topic's files (``build new`` then builds its notebook and release); refuse to
    overwrite anything."""
    files = plan(assignment, kind, title)
    taken = [d for d in (SOURCE_DIR / assignment, TESTS_DIR / assignment, TESTS_DIR / "submissions" / assignment)
             if d.exists()]
    if taken:
        raise SystemExit(f"{assignment} exists already ({', '.join(str(t.relative_to(REPO_ROOT)) for t in taken)})")
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return sorted(files)


def template_notebooks() -> dict[Path, str]:
    """course/authoring/templates/TEMPLATE_<KIND>.ipynb: {path: percent text} with example values filled in."""
    return {TEMPLATES / f"TEMPLATE_{k.upper()}.ipynb": fill((TEMPLATES / k / "notebook.nb.py").read_text(), EXAMPLE)
            for k in KINDS}
