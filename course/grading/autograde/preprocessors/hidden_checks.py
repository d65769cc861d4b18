"""The hidden checks as two preprocessors: ``StartHiddenChecks`` takes the submission's code before the
kernel runs; ``JudgeHiddenChecks`` runs the assignment's hidden suite against it outside the kernel, after
the notebook's kernel has exited (never beside it: a judge worker alive with the kernel could hand hidden
code and inputs to it through whatever channel is left between two sandboxes, and so into the feedback),
writes each test cell's verdict and partial score into its outputs, records the judge's incidents and
keeps the judge's record of the notebook for the class report (``judge_records``)."""
from __future__ import annotations

import os
import tempfile
import time

import nbformat
from nbformat.v4 import new_output
from nbgrader.preprocessors import NbGraderPreprocessor
from traitlets import Integer, Unicode

from ....sandbox import cputime
from .... import fstree
from .... import plain, sandbox
from .... import settings
from .... import notebook as nbtools
from ....judge.results import Results
from ...records import incidents, judge_records


def _meta(cell) -> dict:
    return nbtools.nbgrader_meta(cell)


MAX_MESSAGE = 2_000  # characters of one check's message in the feedback
MAX_VERDICT = 40_000  # characters of one test cell's verdict
MAX_ERROR = 300  # characters of a grading error shown to the student


def _test_cells(nb) -> list:
    """(cell, hidden calls) for every test cell that calls into the hidden suite."""
    cells = [(c, nbtools.hidden_calls(c.source)) for c in nb.cells if nbtools.is_test_cell(c)]
    return [(c, calls) for c, calls in cells if calls]


def _judge_key(resources) -> tuple:
    info = resources.get("nbgrader", {})
    return info.get("assignment"), info.get("student"), info.get("notebook")


def grading_seed(assignment: str, student: str) -> int:
    """Same submission, same checks: an HMAC of (assignment, student) keyed with the course's secret
    salt. The seed shown in feedback replays the run, and does not give the salt away."""
    import hashlib
    import hmac
    salt = settings.current().seed_salt.encode()
    digest = hmac.new(salt, f"{assignment}/{student}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") % 2**31


def _assignment(nb, resources) -> str:
    """The assignment being graded: nbgrader's own record of it; the id the test cells call into only
    where no nbgrader command drives the step (a test calling the preprocessor directly)."""
    return resources.get("nbgrader", {}).get("assignment") or _test_cells(nb)[0][1][0][0]


def _judge(path: str, assignment: str, student: str, timeout: float) -> Results:
    """Run the hidden suite against the notebook at ``path`` in a fresh judge session, then remove
    the folder holding it; its results, with the judge's wall-clock seconds."""
    from ....judge.suite import run_suite

    started, cpu = time.monotonic(), cputime.sample()
    try:
        mode = "on" if sandbox.resolve() else "off"
        res = run_suite(assignment, path, sandbox=mode, timeout=timeout, seed=grading_seed(assignment, student),
                        use_server=True)
    except Exception as exc:  # reported as a grading error on every test cell, never a crash of the batch
        res = Results.failure(f"{type(exc).__name__}: {exc}")
        res.grader_failed = True  # raised in this process, not by the judge: the batch grades it again alone
    finally:
        fstree.remove(os.path.dirname(path))
    res.judge_seconds = round(time.monotonic() - started, 3)
    if res.error and res.judge_seconds >= timeout:  # the judge's own limit: say what CPU it had
        spent = cpu.spent()
        res.error = cputime.verdict_text(res.error, spent)
        if spent.starved:
            res.starved.append(res.error)
    return res


def _snapshot(nb) -> str:
    """The notebook as it is now, written once for the judge (later steps edit ``nb`` in place)."""
    path = os.path.join(tempfile.mkdtemp(prefix="course-judge-"), "submission.ipynb")
    nbformat.write(nb, path)
    return path


STARTED = "course_hidden_checks"  # resources key: the snapshot of this notebook's code, taken before it ran


class StartHiddenChecks(NbGraderPreprocessor):
    """Take the code the hidden checks judge, as submitted, before the notebook executes. The checks
    start in ``JudgeHiddenChecks``, once the kernel has exited (``SafeExecute`` kills its tree first)."""
    timeout = Integer(900, help="seconds for all hidden checks of one notebook").tag(config=True)

    def preprocess(self, nb, resources):
        if _test_cells(nb):
            resources[STARTED] = (_judge_key(resources), _snapshot(nb))
        return nb, resources


class JudgeHiddenChecks(NbGraderPreprocessor):
    timeout = Integer(900, help="seconds for all hidden checks of one notebook").tag(config=True)
    records_dir = Unicode("", help="folder of the judge's records (course.grading.records.judge_records); empty: "
                                   "gradebook/records in the course root of the nbgrader command").tag(config=True)

    def preprocess(self, nb, resources):
        student = resources.get("nbgrader", {}).get("student", "?")
        cells = [c for c in nb.cells if nbtools.is_test_cell(c)]
        for c in cells:
            c.outputs = [self._neutral(o) for o in c.get("outputs", [])]
        calls = _test_cells(nb)
        key, taken = resources.pop(STARTED, (None, None))
        if taken and (key != _judge_key(resources) or not calls):  # another notebook's: never judged for this one
            fstree.remove(os.path.dirname(taken))
            taken = None
        if not calls:
            return nb, resources
        res = _judge(taken or _snapshot(nb), _assignment(nb, resources), student, self.timeout)
        root, assignment = incidents.course_root(self), resources.get("nbgrader", {}).get("assignment", "")
        if res.error:
            self.log.error("%s: hidden checks could not run: %s (regrade this submission)", student, res.error)
            incidents.record(root, assignment, student, incidents.JUDGE,
                             f"hidden checks could not run: {res.error} (regrade this submission)", self.log)
        for event in res.events:
            incidents.report(self.log, root, assignment, student, incidents.JUDGE, plain.one_line(event, 500))
        if getattr(res, "grader_failed", False):  # seen in CI: CPython's "AST constructor recursion depth mismatch"
            # SystemError in the grading process after a batch of hostile submissions; a fresh process grades it
            incidents.record(root, assignment, student, incidents.GRADER, plain.one_line(res.error, 500), self.log)
        for why in res.starved:  # the batch grades this submission again alone (course.grading.class_run.batch)
            incidents.record(root, assignment, student, incidents.STARVED, plain.one_line(why, 500), self.log)
        for cell, task_calls in calls:
            self._write_verdict(cell, [t for _, t in task_calls], res)
        self._save_record(resources, res)
        return nb, resources

    def _save_record(self, resources, res: Results) -> None:
        """The judge's record for the class report; a record that cannot be written never stops grading."""
        try:
            folder = self.records_dir or self._course_records_dir()
            if folder:
                judge_records.write(folder, judge_records.make(resources.get("nbgrader", {}), res))
        except Exception as exc:
            self.log.warning("the judge's record of this notebook was not written: %s",
                             plain.one_line(f"{type(exc).__name__}: {exc}", 300))

    def _course_records_dir(self) -> str | None:
        """gradebook/records under the root of the nbgrader command running this step; None when no
        nbgrader command runs it (a test driving the step directly)."""
        root = incidents.course_root(self)
        return str(judge_records.records_dir(root)) if root else None

    @staticmethod
    def _neutral(o):
        """Test-cell output that cannot decide the grade: stderr becomes stdout, results become displays."""
        if o.get("output_type") == "stream" and o.get("name") == "stderr":
            return new_output("stream", name="stdout", text=o.get("text", ""))
        if o.get("output_type") == "execute_result":
            return new_output("display_data", data=o.get("data", {}), metadata=o.get("metadata", {}))
        return o

    def _write_verdict(self, cell, tasks: list[str], res: Results) -> None:
        points = float(_meta(cell).get("points", 0))
        kernel_error = any(o.get("output_type") == "error" for o in cell.outputs)
        if res.error:
            # the full text is in the grading log; the student sees its first line, capped
            shown = plain.cap((str(res.error).strip().splitlines() or ["?"])[0], MAX_ERROR)
            cell.outputs.append(new_output("error", ename="GradingError", evalue=shown,
                                           traceback=[f"GradingError: hidden checks could not run: {shown}"]))
            return
        checks = res.for_tasks(tasks)
        ran = [c for c in checks if not c.skipped]
        counted = [c for c in ran if c.counts()]  # a passed penalty check earns nothing: left out of both sums
        total_w = sum(c.weight for c in counted)
        got_w = sum(c.weight for c in counted if c.passed)
        score = points * got_w / total_w if total_w else 0.0
        policy = settings.current().essential_policy == "zero"
        essential_failed = [c for c in ran if c.essential and c.failed] if policy else []
        lines = [f"Hidden checks for {', '.join(tasks)} ({len(ran)} run, {points:g} points):"]
        for c in checks:
            share = points * c.weight / total_w if total_w and c.counts() else 0.0
            mark = {"passed": "PASS", "failed": "FAIL", "skipped": "SKIP"}[c.status]
            tag = ("  [essential]" if policy and c.essential else "") + ("  [costs points only if it fails]"
                                                                         if c.penalty else "")
            lines.append(f"  {mark}  {c.title}{tag}  ({share if c.passed else 0:.2f}/{share:.2f})")
            if not c.passed and c.message:
                lines += [f"        {ln}" for ln in plain.cap(c.message, MAX_MESSAGE).splitlines()]
        if essential_failed:
            score = 0.0
            lines.append(f"An essential check failed ({plain.one_line(essential_failed[0].title, 120)}), so this "
                         "cell scores 0 under this course's policy (COURSE_ESSENTIAL_POLICY=zero).")
        if not checks:
            lines.append("  (no hidden checks were found for this cell: tell your instructor)")
        if checks and not ran:
            lines.append("  None of these checks could run on the grading machine, so this cell scores 0: "
                         "it must be graded on a GPU node.")
        if kernel_error:
            score = 0.0
            lines.append("The visible checks in this cell raised an error (above), so this cell scores 0.")
        lines.append(f"Score for this cell: {score:.2f} / {points:g}")
        text = plain.cap("\n".join(lines[:-1]), MAX_VERDICT) + "\n" + lines[-1] + "\n"
        cell.outputs.append(new_output("stream", name="stdout", text=text))
        if not kernel_error:
            cell.outputs.append(new_output("execute_result", data={"text/plain": repr(round(score, 4))},
                                           execution_count=cell.get("execution_count")))
