"""Build steps for instructors.

    python -m course.authoring.build notebooks [--check]   source/*/*.nb.py -> source/*/*.ipynb
    python -m course.authoring.build release [--check]     nbgrader generate_assignment -> release/<id>/,
                                                 and the student kit -> release/ (README, requirements,
                                                 course-student package, JupyterLab settings)
    python -m course.authoring.build new <id> --template algorithm|capstone --title "..."
                                                 a new topic from an authoring template (course.authoring.scaffold)

``--check`` builds into a temporary folder and fails if the committed files
differ (CI runs both checks).
"""
from __future__ import annotations

import argparse
import filecmp
import os
import shutil
import sys
import tempfile
from pathlib import Path

from .. import RELEASE_DIR, REPO_ROOT, SOURCE_DIR
from .. import notebook as nbtools


def assignments() -> list[str]:
    """Every assignment in source/, or only those named in $COURSE_ONLY (comma-separated)."""
    found = sorted(p.name for p in SOURCE_DIR.iterdir() if p.is_dir() and list(p.glob("*.ipynb")))
    only = [a for a in os.environ.get("COURSE_ONLY", "").split(",") if a]
    return [a for a in found if a in only] if only else found


def build_notebooks(check: bool, only: list[str] | None = None) -> list[str]:
    from .scaffold import template_notebooks
    jobs = []
    for script in sorted(SOURCE_DIR.glob("*/*.nb.py")):
        if only and script.parent.name not in only:
            continue
        jobs.append((script.with_name(script.name[: -len(".nb.py")] + ".ipynb"), script.read_text(encoding="utf-8")))
    if not only:
        jobs += sorted(template_notebooks().items())
    stale = []
    for target, text in jobs:
        nb = nbtools.from_percent(text)
        with tempfile.NamedTemporaryFile("w", suffix=".ipynb", delete=False) as tmp:
            pass
        nbtools.write(nb, tmp.name)
        if not target.exists() or Path(tmp.name).read_bytes() != target.read_bytes():
            stale.append(str(target.relative_to(REPO_ROOT)))
            if not check:
                shutil.copyfile(tmp.name, target)  # safe: repository files
        os.unlink(tmp.name)
    return stale


def tool_env() -> dict:
    """Environment for nbgrader subprocesses: this venv's tools on PATH, the course importable."""
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    env["PYTHONPATH"] = str(REPO_ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def generate(root: Path, assignment: str) -> None:
    """Run nbgrader generate_assignment for one assignment in course root ``root``."""
    from ..grading import runner
    log = root / f".generate-{assignment}.log"
    if runner.nbgrader(root, ["generate_assignment", assignment, "--force", "--log-level=WARN"], log) != 0:
        raise SystemExit(f"generate_assignment {assignment} failed:\n{log.read_text(errors='replace')}")
    log.unlink()


def build_release(check: bool, only: list[str] | None = None) -> list[str]:
    """Generate each assignment in a scratch course root; copy (or compare) into release/."""
    stale = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        shutil.copy(REPO_ROOT / "nbgrader_config.py", root)  # safe: the repository's file into a fresh temp folder
        (root / "gradebook").mkdir()
        for a in only or assignments():
            shutil.copytree(SOURCE_DIR / a, root / "source" / a,  # safe: the repository's own source/
                            ignore=shutil.ignore_patterns("*.nb.py", "__pycache__", ".ipynb_checkpoints"))
            generate(root, a)
            built, committed = root / "release" / a, RELEASE_DIR / a
            if not committed.exists() or _differs(built, committed):
                stale.append(f"release/{a}")
                if not check:
                    shutil.rmtree(committed, ignore_errors=True)
                    shutil.copytree(built, committed)  # safe: repository files
    return stale


# What a student needs besides the notebooks, pinned as the instructor's requirements.txt pins them.
STUDENT_PACKAGES = ("torch", "torchvision", "numpy", "matplotlib", "tqdm", "jupyterlab", "nbgrader", "ipykernel")
KIT = REPO_ROOT / "course" / "student_kit"


def student_kit(dest: Path) -> None:
    """Write the student kit into ``dest`` (an empty folder)."""
    pins = {}
    for line in (REPO_ROOT / "requirements.txt").read_text().splitlines():
        name = line.split("==")[0].strip().lower()
        if "==" in line and name in STUDENT_PACKAGES:
            pins[name] = line.strip()
    missing = [p for p in STUDENT_PACKAGES if p not in pins]
    if missing:
        raise SystemExit(f"requirements.txt pins no version for {missing}")
    (dest / "requirements.txt").write_text(
        "# The student set-up: run `python3 -m pip install -r requirements.txt` in this folder.\n"
        + "\n".join(pins[p] for p in STUDENT_PACKAGES) + "\n./course-student\n")
    shutil.copy(KIT / "README.md", dest / "README.md")  # safe: repository files
    for conf in ("jupyter", "jupyter-hub"):
        shutil.copytree(KIT / conf, dest / conf)  # safe: repository files
        shutil.copy(KIT / "nbgrader_config.py", dest / conf / "nbgrader_config.py")  # safe: repository files
    pkg = dest / "course-student"
    (pkg / "course" / "student").mkdir(parents=True)
    mark = "# Generated by `python -m course.authoring.build release` from course/student_kit/ and course/student/: do not edit here.\n"
    (pkg / "pyproject.toml").write_text(mark + (KIT / "pyproject.toml").read_text())
    (pkg / "course" / "__init__.py").write_text(mark + (KIT / "course_init.py").read_text())
    for src in sorted((REPO_ROOT / "course" / "student").glob("*.py")):
        shutil.copy(src, pkg / "course" / "student" / src.name)  # safe: repository files


def build_student_kit(check: bool) -> list[str]:
    """release/{README.md, requirements.txt, jupyter*, course-student}: compare or copy."""
    stale = []
    with tempfile.TemporaryDirectory() as tmp:
        student_kit(Path(tmp))
        for entry in sorted(Path(tmp).iterdir()):
            committed = RELEASE_DIR / entry.name
            same = (committed.is_dir() and not _differs(entry, committed)) if entry.is_dir() else \
                (committed.is_file() and filecmp.cmp(entry, committed, shallow=False))
            if not same:
                stale.append(f"release/{entry.name}")
                if not check:
                    shutil.rmtree(committed, ignore_errors=True) if committed.is_dir() else committed.unlink(missing_ok=True)
                    (shutil.copytree if entry.is_dir() else shutil.copy)(entry, committed)  # safe: repository files
    return stale


def _differs(a: Path, b: Path) -> bool:
    cmp = filecmp.dircmp(a, b)
    if cmp.left_only or cmp.right_only or cmp.diff_files:
        return True
    return any(_differs(a / d, b / d) for d in cmp.common_dirs)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m course.authoring.build")
    ap.add_argument("what", choices=["notebooks", "release", "new"])
    ap.add_argument("--check", action="store_true", help="only report what is out of date")
    ap.add_argument("--template", choices=["algorithm", "capstone"], help="new: the authoring template")
    ap.add_argument("--title", help="new: the topic's title")
    ap.add_argument("assignment", nargs="*")
    args = ap.parse_args(argv)
    if args.what == "new":
        if len(args.assignment) != 1 or not args.template:
            ap.error("usage: python -m course.authoring.build new <id> --template algorithm|capstone [--title TITLE]")
        from . import scaffold
        for path in scaffold.create(args.assignment[0], args.template, args.title or args.assignment[0]):
            print(f"created: {path.relative_to(REPO_ROOT)}")
        print(f"next: edit source/{args.assignment[0]}/*.nb.py, then python -m course.authoring.build notebooks && "
              f"python -m course.authoring.build release; see course/AUTHORING.md")
        return 0
    if args.what == "notebooks":
        stale = build_notebooks(args.check, args.assignment or None)
    else:
        stale = build_release(args.check, args.assignment or None)
        if not args.assignment:
            stale += build_student_kit(args.check)
    verb = "out of date" if args.check else "rebuilt"
    for s in stale:
        print(f"{verb}: {s}")
    if args.check and stale:
        print(f"run: python -m course.authoring.build {args.what}")
        return 1
    if not stale:
        print(f"{args.what}: up to date")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
