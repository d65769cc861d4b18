"""make test-cost: each test is charged the CPU of the processes it started (a child that has exited as well as
one still running), per test file, and the table lands between the marker lines of docs/performance.md."""
import json
import os
import subprocess
import sys
import textwrap

from course import REPO_ROOT
from course.authoring import suite_cost

BURN = "import time\nt = time.process_time()\nwhile time.process_time() - t < {s}: pass\n"


def test_a_tests_children_are_charged_to_it_and_a_nested_pytest_is_not_measured(tmp_path):
    tests = tmp_path / "t"
    tests.mkdir()
    used = tmp_path / "live-child-cpu"
    (tests / "conftest.py").write_text("pytest_plugins = ['course.authoring.suite_cost']\n")
    (tests / "test_burn.py").write_text(textwrap.dedent(f"""
        import subprocess, sys, time

        import psutil
        import pytest

        def test_exited_child():
            subprocess.run([sys.executable, "-c", {BURN.format(s=1.0)!r}], check=True)

        @pytest.fixture
        def burner():
            p = subprocess.Popen([sys.executable, "-c", {BURN.format(s=30)!r}])
            yield p
            t = psutil.Process(p.pid).cpu_times()
            open({str(used)!r}, "w").write(str(t.user + t.system))
            p.kill()
            p.wait()

        def test_live_child(burner):  # still running when the call ends: charged what it used so far
            time.sleep(1.5)

        def test_idle():
            time.sleep(0.5)

        def test_nested_pytest(tmp_path):  # a pytest a test starts (as a judge does) is its test's cost only
            (tmp_path / "test_inner.py").write_text("def test_inner():\\n    pass\\n")
            subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "course.authoring.suite_cost",
                            str(tmp_path / "test_inner.py")], check=True, capture_output=True)

        def test_inprocess_pytest(tmp_path):  # pytest.main inside this process (as test_readme does)
            (tmp_path / "test_inner2.py").write_text("def test_inner2():\\n    pass\\n")
            assert pytest.main(["-q", "-p", "course.authoring.suite_cost", "-p", "no:cacheprovider",
                                str(tmp_path / "test_inner2.py")]) == 0

        def test_after_inprocess_pytest():  # still measured: the inner run's configure and unconfigure change nothing
            pass
    """))
    out = tmp_path / "cost.jsonl"
    env = dict(os.environ, COURSE_TEST_COST=str(out), PYTHONPATH=str(REPO_ROOT))
    env.pop(suite_cost.MAIN, None)
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(tests),
                        str(tests)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    recs = [json.loads(ln) for ln in out.read_text().splitlines()]
    cpu, before_teardown = {}, {}
    for rec in recs:
        if rec["nodeid"] == suite_cost.COLLECTION:
            continue
        name = rec["nodeid"].split("::")[-1]
        cpu[name] = cpu.get(name, 0) + rec["cpu"]
        if rec["phase"] != "teardown":
            before_teardown[name] = before_teardown.get(name, 0) + rec["cpu"]
    assert set(cpu) == {"test_exited_child", "test_live_child", "test_idle", "test_nested_pytest",
                        "test_inprocess_pytest", "test_after_inprocess_pytest"}, cpu  # no test_inner, test_inner2
    assert cpu["test_exited_child"] >= 0.9, cpu
    live = float(used.read_text())  # what the live child had used when its test's call ended
    assert live > 0.05 and before_teardown["test_live_child"] >= 0.9 * live, (live, before_teardown)
    assert cpu["test_idle"] < 0.3, cpu


def test_the_table_sums_per_file_and_replaces_its_block(tmp_path):
    lines = [json.dumps({"nodeid": n, "phase": ph, "cpu": c, "wall": w, "only": ""}) for n, ph, c, w in [
        ("tests/test_a.py::test_x[15-01]", "setup", 100.0, 120.0), ("tests/test_a.py::test_x[15-01]", "call", 1.0, 2.0),
        ("tests/test_a.py::test_x[15-02]", "call", 5.0, 6.0), ("tests/test_b.py::test_y", "call", 300.0, 310.0)]]
    rows = suite_cost.summarise(lines + ["not json"])
    assert [(r["file"], r["cpu"], r["wall"], r["tests"], r["topics"]) for r in rows] == [
        ("test_b.py", 300.0, 310.0, 1, []), ("test_a.py", 106.0, 128.0, 2, ["15-01", "15-02"])]
    doc = tmp_path / "performance.md"
    doc.write_text(f"# P\n\nbefore\n\n{suite_cost.BEGIN}\nold table\n{suite_cost.END}\n\nafter\n")
    suite_cost.write_into(doc, suite_cost.table(rows, "a note"))
    text = doc.read_text()
    assert "old table" not in text and "before" in text and "after" in text
    assert "| test_b.py | 300 | 310 | 1 | - |" in text and "| test_a.py | 106 | 128 | 2 | 15-01, 15-02 |" in text
    assert "| **all** | **406** |" in text and text.count(suite_cost.BEGIN) == 1


def test_what_runs_between_tests_and_before_the_first_is_charged_and_the_measuring_is_counted(tmp_path):
    """CPU spent between two tests (pytest's own reporting hooks, here a conftest hook that burns 0.4 s after
    each test) lands in the records instead of being lost; the process's start and collection are a record
    of their own, ``(collection)``; each record says what measuring it cost, summed by measuring_cost."""
    tests = tmp_path / "t"
    tests.mkdir()
    (tests / "conftest.py").write_text("pytest_plugins = ['course.authoring.suite_cost']\n" + textwrap.dedent(f"""
        import time
        def pytest_runtest_logfinish(nodeid, location):
            {BURN.format(s=0.4).replace(chr(10), chr(10) + '            ')}
        t0 = time.process_time()
        while time.process_time() - t0 < 0.5:  # a costly import, before any test
            pass
    """))
    (tests / "test_two.py").write_text("def test_a():\n    pass\n\ndef test_b():\n    pass\n\ndef test_c():\n    pass\n")
    out = tmp_path / "cost.jsonl"
    env = dict(os.environ, COURSE_TEST_COST=str(out), PYTHONPATH=str(REPO_ROOT))
    env.pop(suite_cost.MAIN, None)
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(tests),
                        str(tests)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    lines = out.read_text().splitlines()
    recs = [json.loads(ln) for ln in lines]
    (collected,) = [x for x in recs if x["nodeid"] == suite_cost.COLLECTION]
    assert collected["cpu"] >= 0.5, collected
    tests_cpu = sum(x["cpu"] for x in recs if x["nodeid"] != suite_cost.COLLECTION)
    assert tests_cpu >= 2 * 0.4 * 0.9, recs  # the burns after test_a and test_b, charged to the phases after them
    assert all(x["self"] >= 0 for x in recs) and 0 < suite_cost.measuring_cost(lines) < 1.0, recs
    assert suite_cost.COLLECTION in {r["file"] for r in suite_cost.summarise(lines)}


def test_an_orphans_cpu_is_charged_where_the_plugin_has_a_cpuacct_group(tmp_path):
    """A test whose child leaves a grandchild behind (reparented to PID 1, as a sandbox's process can be when
    its parent is killed) is charged that grandchild's CPU: the process tree never sees it, the plugin's own
    cpuacct group does. Where no such group can be made (not root, no separate v1 cpuacct hierarchy) the
    plugin counts the tree, a floor, and says so in each record."""
    own = suite_cost._own_cpuacct()
    if own is None or os.geteuid() != 0:
        import pytest
        pytest.skip("no separate v1 cpuacct hierarchy, or not root: the plugin counts the process tree (a floor) here")
    tests = tmp_path / "t"
    tests.mkdir()
    done = tmp_path / "orphan-done"
    (tests / "conftest.py").write_text("pytest_plugins = ['course.authoring.suite_cost']\n")
    orphan = ("import os, time\nif os.fork() == 0:\n    " + BURN.format(s=1.2).replace("\n", "\n    ")
              + f"open({str(done)!r}, 'w').close()\n    os._exit(0)\n")
    (tests / "test_orphan.py").write_text(textwrap.dedent(f"""
        import os, subprocess, sys, time

        def test_leaves_an_orphan():
            subprocess.run([sys.executable, "-c", {orphan!r}], check=True)  # exits at once; its child burns on
            deadline = time.monotonic() + 60
            while not os.path.exists({str(done)!r}) and time.monotonic() < deadline:
                time.sleep(0.05)
            assert os.path.exists({str(done)!r})
    """))
    out = tmp_path / "cost.jsonl"
    env = dict(os.environ, COURSE_TEST_COST=str(out), PYTHONPATH=str(REPO_ROOT))
    env.pop(suite_cost.MAIN, None)
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(tests),
                        str(tests)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    recs = [json.loads(ln) for ln in out.read_text().splitlines() if suite_cost.COLLECTION not in ln]
    assert sum(x["cpu"] for x in recs) >= 1.2 * 0.9, recs
    assert {x["how"] for x in recs} == {"cgroup"}, recs
    base = os.path.join(os.path.realpath(suite_cost.CPUACCT), own.lstrip("/"))
    assert not os.path.exists(os.path.join(base, f"testcost-{recs[0]['pid']}")), "the run's group was left behind"
