"""Every example submission gets the verdict its spec expects, per task.

Specs live in tests/submissions/<assignment>/<name>.py (see
course/grading/submissions.py). This is where each suite proves it rejects
known-wrong answers and accepts correct ones written differently.
"""
from pathlib import Path

import pytest

from course.check import run_suite
from course.grading import submissions

SPECS = [p for p in submissions.specs() if "RAW" not in submissions.load_spec(p) and
         submissions.load_spec(p).get("EXPECT")]


@pytest.mark.parametrize("spec_path", SPECS, ids=[f"{p.parent.name}/{p.stem}" for p in SPECS])
def test_example_submission_verdicts(spec_path: Path, tmp_path):
    nb_path = tmp_path / "submission.ipynb"
    spec = submissions.write(spec_path, nb_path)
    res = run_suite(spec_path.parent.name, nb_path, sandbox="auto")
    assert not res.get("error"), res.get("error")
    by_task = {}
    for c in res["checks"]:
        by_task.setdefault(c["task"], []).append(c)
    problems = []
    for task, want in spec["EXPECT"].items():
        checks = by_task.get(task, [])
        ran = [c for c in checks if c["status"] != "skipped"]
        passed = [c for c in ran if c["status"] == "passed"]
        if not ran:
            problems.append(f"{task}: no check ran")
        elif want == "pass" and len(passed) != len(ran):
            problems.append(f"{task}: expected all to pass, failed: " +
                            "; ".join(f"{c['name']}: {c['message']}" for c in ran if c["status"] == "failed"))
        elif want == "fail" and len(passed) == len(ran):
            problems.append(f"{task}: expected at least one failure, all {len(ran)} passed")
        elif want == "zero" and passed:
            problems.append(f"{task}: expected none to pass, passed: {[c['name'] for c in passed]}")
    assert not problems, f"{spec_path.name} (seed {res['seed']}):\n" + "\n".join(problems)
