"""The grading benchmark (course/authoring/bench.py, make bench) in a tiny configuration: one topic, two
submissions, one worker. Checks the table's columns and that its numbers are there and positive, not
how fast anything is (about 100 s on the shared 2-core machine at a load average of 3)."""
import os
import re
import subprocess
import sys

import pytest

from course import REPO_ROOT
from course.authoring import bench


def test_class_per_topic_starts_with_reference_blank_and_partly_wrong():
    kinds = [k for k, _ in bench.class_specs("15-01", 6)]
    assert kinds[:4] == ["reference", "release", "partly_wrong", "unusual_correct"] and len(kinds) == 6
    assert len(set(kinds)) == 6
    assert [k for k, _ in bench.class_specs("15-01", 2)] == ["reference", "release"]


@pytest.mark.skipif(not os.environ.get("COURSE_TEST_BENCH"),
                    reason="runs the bench (about a minute): make test-suites (COURSE_TEST_BENCH=1)")
def test_tiny_bench_prints_the_table():
    r = subprocess.run([sys.executable, "-m", "course.authoring.bench", "--assignment", "15-01", "--per-topic", "2",
                        "--workers", "1"], cwd=REPO_ROOT, capture_output=True, text=True, timeout=600)
    out = r.stdout
    assert r.returncode == 0, out[-3000:] + r.stderr[-3000:]
    assert re.search(r"machine: \d+ cores, \d+ GiB memory, GPU: .+; load average before: [\d.]+", out), out
    head = next(ln for ln in out.splitlines() if ln.startswith("| topic"))
    cols = [c.strip() for c in head.strip("|").split("|")]
    assert cols == ["topic", "subs", "median s/sub, 1 worker", "reference, 1 worker", "cold-kernel floor",
                    "plain nbgrader + checks in kernel"], cols
    row = next(ln for ln in out.splitlines() if ln.startswith("| 15-01"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[1] == "2"
    assert all(float(c) > 0 for c in cells[2:]), row
    wall = re.search(r"class autograde, 1 worker\(s\): (\d+) s wall for 2 submissions", out)
    assert wall and int(wall.group(1)) > 0, out
    first = re.search(r"first submission, 1 worker\(s\): \S+ ([\d.]+) s; median of the rest of 15-01: ([\d.]+) s", out)
    assert first and float(first.group(1)) > 0 and float(first.group(2)) > 0, out
    mem = re.search(r"peak memory per worker tree, 1 worker\(s\): RSS ([\d.]+) / PSS ([\d.]+) GiB", out)
    assert mem and float(mem.group(1)) > 0 and float(mem.group(2)) > 0, out
    assert re.search(r"load average \(1, 5, 15 min\): before [\d. ]+, after [\d. ]+", out), out
    from course.sandbox import template
    way = "sandboxes: forked from a template" if template.wanted() else "sandboxes: bubblewrap for each"
    assert way in out, out  # the default as root: the template, seen in the worker's tree


def test_the_table_says_which_way_the_sandboxes_were_made(monkeypatch):
    """From what the sampler saw in the worker trees, not only from the setting."""
    seen = [{"memory": [{"template": True}, {"template": False}]}]
    assert bench.sandbox_path(seen).startswith("sandboxes: forked from a template") and "1 of 2" in bench.sandbox_path(seen)
    monkeypatch.setenv("COURSE_SANDBOX_TEMPLATE", "0")
    off = bench.sandbox_path([{"memory": [{"template": False}]}])
    assert off.startswith("sandboxes: bubblewrap for each kernel and judge worker (")
    assert "COURSE_SANDBOX_TEMPLATE is off" in off or "not root" in off, off
