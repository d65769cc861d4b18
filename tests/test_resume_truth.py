"""The gradebook is the truth (course/grading/class_run/batch.py, graded_record.py): a run skips a submission
only when the gradebook it writes into holds its grade for the same submission, code and settings,
and its autograded copy is the one that grading left. The pipeline's own decision runs on a real
nbgrader gradebook; only ``nbgrader autograde`` is replaced, by a grader that writes a score through
nbgrader's Gradebook API (the real command is exercised by test_batch.py)."""
import dataclasses
import os
import re
import shutil
import sys

import functools

import nbgrader.api
import pytest
from nbgrader.api import Gradebook

from course import settings
from course.grading.class_run import batch, pipeline

A = "15-01"
NB = "graded"
CLASS = ("amy", "bob", "cat")
ALEMBIC = functools.cache(nbgrader.api.get_alembic_version)  # a fresh gradebook asks the alembic command


def default_db(root):
    return f"sqlite:///{root / 'gradebook' / 'gradebook.db'}"


@pytest.fixture
def code(tmp_path, monkeypatch):
    """The grading code the fingerprint hashes: a small copy of its own, which nobody edits while
    the test runs (the repository's may change under a test on a shared checkout)."""
    for env in [k for k in os.environ if k.startswith("COURSE_")]:
        monkeypatch.delenv(env)
    repo = tmp_path / "repo"
    for folder in (repo / "course", repo / "tests" / A, repo / "source" / A):
        folder.mkdir(parents=True)
        (folder / "x.py").write_text("GRADE = 1\n")
    (repo / "nbgrader_config.py").write_text("c = get_config()\n")
    monkeypatch.setattr(batch, "REPO_ROOT", repo)
    monkeypatch.setattr(batch, "TESTS_DIR", repo / "tests")
    return repo


@pytest.fixture
def course(tmp_path, monkeypatch, code):
    """A class of three in a fresh root, and the list of students each run grades."""
    tmp_path = tmp_path / "course"
    monkeypatch.setenv("PATH", os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])  # nbgrader's alembic
    monkeypatch.setattr(nbgrader.api, "get_alembic_version", ALEMBIC)
    monkeypatch.setenv("COURSE_SANDBOX", "off")  # nothing runs: the grader below is in-process
    monkeypatch.setenv("PYTHONUNBUFFERED", "1")
    for i, s in enumerate(CLASS):
        folder = tmp_path / "gradebook" / "submitted" / s / A
        folder.mkdir(parents=True)
        (folder / f"{NB}.ipynb").write_text(f"answer {i}")
    graded = []

    def fake_autograde(self, root, args, log, more=True):
        """Score = the answer's number (2 for cat) + 1 under COURSE_ALLOW_CPU_GRADING, as a real
        grading's GPU checks would."""
        assert args[:2] == ["autograde", A]
        student = args[2].removeprefix("--student=")
        db = next((x.split("=", 1)[1] for x in args if x.startswith("--CourseDirectory.db_url=")), None)
        answer = (root / "gradebook" / "submitted" / student / A / f"{NB}.ipynb").read_text()
        with Gradebook(db or default_db(root)) as gb:
            gb.update_or_create_assignment(A)
            gb.update_or_create_notebook(NB, A)
            gb.update_or_create_grade_cell("c1", NB, A, max_score=3, cell_type="code")
            gb.update_or_create_student(student)
            gb.update_or_create_submission(A, student)
            grade = gb.find_grade("c1", NB, A, student)
            grade.auto_score = int(answer.split()[-1]) + settings.current().allow_cpu_grading
            gb.db.commit()
        out = root / "autograded" / student / A
        out.mkdir(parents=True, exist_ok=True)
        (out / f"{NB}.ipynb").write_text(answer)
        graded.append(student)
        return 0

    monkeypatch.setattr(batch.Worker, "start", lambda self, *a, **k: None)
    monkeypatch.setattr(batch.Worker, "nbgrader", fake_autograde)
    return tmp_path, graded


def grade(root, capsys, *more):
    code = pipeline.main(["--root", str(root), "--assignment", A, "--no-examples", "--steps", "autograde",
                          "--workers", "1", "--no-progress", *more])
    out = capsys.readouterr().out
    assert code == 0, out
    return out


def scores(db):
    with Gradebook(db) as gb:
        return {s: gb.find_submission(A, s).score for s in CLASS}


def first_run(root, graded, capsys):
    out = grade(root, capsys)
    assert sorted(graded) == sorted(CLASS) and "3 graded, 0 unchanged" in out, out
    graded.clear()
    return scores(default_db(root))


def test_unchanged_rerun_skips_and_says_why_in_one_line(course, capsys):
    root, graded = course
    first = first_run(root, graded, capsys)
    out = grade(root, capsys)
    assert graded == [] and "0 graded, 3 unchanged" in out, out
    line = next(ln for ln in out.splitlines() if ln.startswith("autograde: skipped"))
    assert line == (f"autograde: skipped 3 of 3 already graded in {default_db(root)} with the same "
                    f"submission, code and settings (--force regrades them); grading 0"), out
    assert scores(default_db(root)) == first


def test_another_gradebook_grades_everyone_again(course, capsys):
    root, graded = course
    first = first_run(root, graded, capsys)
    other = f"sqlite:///{root / 'other.db'}"
    out = grade(root, capsys, "--db", other)
    assert sorted(graded) == sorted(CLASS), out
    assert "autograde: grading 3: 3 not graded in this gradebook" in out and "autograde: skipped" not in out, out
    assert scores(other) == first
    graded.clear()
    grade(root, capsys, "--db", other)  # now that one holds them too
    grade(root, capsys)
    assert graded == []


def test_removed_gradebook_or_autograded_copy_grades_again(course, capsys):
    root, graded = course
    first = first_run(root, graded, capsys)
    shutil.rmtree(root / "autograded" / "bob")  # only one student's autograded copy
    out = grade(root, capsys)
    assert graded == ["bob"] and "1 autograded copy missing or replaced" in out, out
    graded.clear()
    (root / "autograded" / "cat" / A / f"{NB}.ipynb").write_text("answer 0")  # not what cat's grading left
    grade(root, capsys)
    assert graded == ["cat"]
    graded.clear()
    assert (root / "gradebook" / "progress" / A).is_dir()  # the markers stay; they decide nothing
    for p in (root / "gradebook").glob("gradebook.db*"):
        p.unlink()
    shutil.rmtree(root / "autograded")
    out = grade(root, capsys)
    assert sorted(graded) == sorted(CLASS) and "3 graded, 0 unchanged" in out, out
    assert scores(default_db(root)) == first


def test_a_setting_that_changes_scores_grades_again(course, capsys, monkeypatch):
    root, graded = course
    first = first_run(root, graded, capsys)
    monkeypatch.setenv("COURSE_WORKERS", "1")  # changes no score: still skipped
    grade(root, capsys)
    assert graded == []
    monkeypatch.setenv("COURSE_ALLOW_CPU_GRADING", "1")
    out = grade(root, capsys)
    assert sorted(graded) == sorted(CLASS), out
    assert "3 changed since (submission, code or settings)" in out, out
    assert scores(default_db(root)) == {s: v + 1 for s, v in first.items()}


def test_force_grades_all_and_a_failed_grading_leaves_no_record(course, capsys, monkeypatch):
    root, graded = course
    first = first_run(root, graded, capsys)
    out = grade(root, capsys, "--force")
    assert sorted(graded) == sorted(CLASS) and "3 graded, 0 unchanged" in out, out
    assert scores(default_db(root)) == first
    graded.clear()
    fake = batch.Worker.nbgrader
    monkeypatch.setattr(batch.Worker, "nbgrader",
                        lambda self, root, args, log, more=True: 1 if args[2] == "--student=amy" else fake(
                            self, root, args, log, more))
    assert pipeline.main(["--root", str(root), "--assignment", A, "--no-examples", "--steps", "autograde",
                          "--workers", "1", "--no-progress", "--force"]) == 1
    capsys.readouterr()
    monkeypatch.setattr(batch.Worker, "nbgrader", fake)
    graded.clear()
    grade(root, capsys)
    assert graded == ["amy"]  # its grade from before the failed attempt is not trusted


def test_every_setting_counts_unless_listed_as_not_changing_scores(monkeypatch, code):
    base = batch.grading_key(A)
    assert batch.grading_key(A, gpus=1) != base
    (code / "course" / "x.py").write_text("GRADE = 2\n")
    assert batch.grading_key(A) != base
    (code / "course" / "x.py").write_text("GRADE = 1\n")
    for f in dataclasses.fields(settings.Settings):
        value = ("0" if f.default else "1") if f.type == "bool" else str(f.default + 7) if f.type == "int" else \
            next((c for c in settings.CHOICES.get(f.name, ()) if c != f.default), "x")  # a word it takes, if it takes words
        monkeypatch.setenv(settings.env_name(f.name), value)
        changed = batch.grading_key(A) != base
        assert changed == (f.name not in batch.NOT_SCORING), f"{f.name}: fingerprint changed={changed}"
        monkeypatch.delenv(settings.env_name(f.name))
    assert re.fullmatch(r"[0-9a-f]{64}", base)


# -- the real thing: nbgrader autograde of a one-cell assignment, into two gradebooks --------------

@pytest.mark.skipif(not os.environ.get("COURSE_TEST_REAL_RESUME"),
                    reason="a real nbgrader run into two gradebooks (about a minute): make test-suites "
                           "(COURSE_TEST_REAL_RESUME=1); the tests above drive the same decision")
def test_real_rerun_into_another_gradebook_gives_the_same_score(tmp_path):
    import subprocess

    import nbformat

    from course import REPO_ROOT
    from tests import tiny_course as tc

    def check(grade_id, code, points):
        cell = nbformat.v4.new_code_cell(code)
        cell.metadata["nbgrader"] = {"solution": False, "grade": True, "locked": True, "grade_id": grade_id,
                                     "points": points, "schema_version": 3}
        return cell

    root = tc.make(tmp_path / "course")
    checks = [check("right", "assert answer == 42", 2), check("wrong", "assert answer == 43", 3)]
    source = tc.source_notebook()
    source.cells += checks
    nbformat.write(source, root / "source" / tc.A / tc.NAME)
    submitted = nbformat.read(tc.submit(root, "amy"), 4)
    submitted.cells += checks
    nbformat.write(submitted, root / "gradebook" / "submitted" / "amy" / tc.A / tc.NAME)
    other = f"sqlite:///{root / 'other.db'}"

    def run(*more, cpu="1"):
        env = {k: v for k, v in os.environ.items() if not k.startswith("COURSE_")}
        proc = subprocess.run([sys.executable, "-m", "course.grading.pipeline", "--root", str(root), "--assignment",
                               tc.A, "--no-examples", "--workers", "1", "--no-progress", *more], cwd=REPO_ROOT,
                              env=dict(env, COURSE_ALLOW_CPU_GRADING=cpu), capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
        return proc.stdout

    def score(db):
        with Gradebook(db) as gb:
            sub = gb.find_submission(tc.A, "amy")
            return sub.score, sub.max_score

    out = run("--steps", "generate,autograde")
    assert "1 graded, 0 unchanged" in out, out
    first = score(default_db(root))
    assert 2 <= first[0] <= first[1] - 3, first  # "right" passed, "wrong" failed
    out = run("--steps", "generate,autograde", "--db", other)
    assert "autograde: grading 1: 1 not graded in this gradebook" in out and "1 graded, 0 unchanged" in out, out
    assert score(other) == first
    out = run("--steps", "generate,autograde", "--db", other)  # as make grade reruns: generate again first
    assert "autograde: skipped 1 of 1 already graded in" in out and "0 graded, 1 unchanged" in out, out
    out = run("--steps", "autograde", "--db", other, cpu="0")  # a setting that changes scores (not this one's)
    assert "autograde: grading 1: 1 changed since (submission, code or settings)" in out, out
    assert score(other) == first
