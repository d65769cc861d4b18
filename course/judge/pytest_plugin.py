"""pytest plugin behind every hidden suite (loaded from tests/conftest.py).

Fixtures: ``student`` (the adapter to the submission under test), ``gen``
(a seeded torch.Generator; the seed is printed with every failure so a run
can be replayed with ``--seed``).

Markers: ``task(name)`` ties a test to the notebook cell whose hidden block
calls ``run_hidden(assignment, name)``; ``gpu`` marks a check that needs CUDA.

Which notebook is judged: ``--notebook PATH`` (a submission), else the
reference in ``source/<assignment>/``. Results per test go to
``--results-json`` for the grading preprocessor.
"""
from __future__ import annotations

import functools
import json
import os
import random
import re
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import torch

from .. import SOURCE_DIR, TESTS_DIR
from .. import notebook as nbtools
from .. import settings
from .results import NO_GPU_FAILED, NO_GPU_SKIPPED, Check, Results

# The live notebook namespace a session judges in-process (course.judge.inprocess puts it in the
# session's config.stash through a plugin of its own); sessions without it load a worker.
IN_PROCESS = pytest.StashKey()


@dataclass
class SessionState:
    """What one judge session keeps between hooks (in ``config.stash[STATE]``)."""
    seed: int                                       # the run's seed
    records: list = field(default_factory=list)     # one Check per finished check
    students: dict = field(default_factory=dict)    # (assignment, notebook[, "apart"]) -> its worker
    last_item: dict = field(default_factory=dict)   # notebook -> nodeid of its last check
    failed: set = field(default_factory=set)        # (notebook, seed, task) already failed (--notebook-first-failure)
    error: str | None = None                        # the grading error that kept checks from running
    starved: list = field(default_factory=list)     # the judge's own work the machine's load stopped (GraderOverloaded)
    session: object = None                          # the pytest session, once it has finished


STATE = pytest.StashKey[SessionState]()
CHECK_SEED = pytest.StashKey[int]()  # an item's own run seed, set by the course_seed fixture


def state(config) -> SessionState:
    return config.stash[STATE]


# Set by the judge server in the session it forks (course.judge.server): there, once the session has
# finished (results written, workers closed, summary in the log) nothing else is needed, and the fork
# ends at once instead of running pytest's unconfigure hooks (a full gc.collect over torch's objects
# among them) and Python's shutdown: about 0.4 s off every submission's verdict.
EXIT_AFTER_SESSION = False


def pytest_addoption(parser):
    g = parser.getgroup("course")
    g.addoption("--notebook", action="append", default=[],
                help="judge this notebook instead of the reference in source/ (repeat to judge several)")
    g.addoption("--sandbox", default=None, choices=["on", "off", "auto"],
                help="run submission code in the sandbox (default: on for --notebook, auto for references)")
    g.addoption("--results-json", default=None, help="write one record per check to this file")
    g.addoption("--seed", type=int, default=None, help="seed for the random inputs (default: fresh each run)")
    g.addoption("--task", action="append", default=[], help="only run checks for these task names")
    g.addoption("--notebook-tasks", action="append", default=[], metavar="PATH=TASK,TASK",
                help="for this --notebook, only run checks for these tasks (the others are not run)")
    g.addoption("--notebook-first-failure", action="append", default=[], metavar="PATH=TASK,TASK",
                help="for this --notebook, stop checking a task under a seed once one of its checks failed "
                     "(the rest are skipped; for known-wrong examples, whose verdict needs one failure)")
    g.addoption("--notebook-first-checks", default=None, metavar="JSON",
                help="a JSON file mapping a --notebook to the checks (check_order_key) to run first for it: "
                     "the ones that caught a known-wrong example before, so that --notebook-first-failure "
                     "skips the rest sooner (an order only: every check still runs unless skipped so)")
    g.addoption("--notebook-seeds", action="append", default=[], metavar="PATH=N[@TASK,TASK]",
                help="judge this --notebook under N seeds (the run's seed and N-1 derived from it), "
                     "only for these tasks if given (the others under the run's seed)")


def pytest_configure(config):
    config.addinivalue_line("markers", "task(name): the notebook task (hidden-block call) a check belongs to")
    config.addinivalue_line("markers", "essential: a check of a clause the task's text calls essential (under "
                                       "COURSE_ESSENTIAL_POLICY=zero its failure zeroes the task's cell)")
    config.addinivalue_line("markers", "penalty: a check that earns nothing when it passes and costs its share of the "
                                       "task when it fails (keeping the skeleton's def lines: test_signatures.py)")
    config.addinivalue_line("markers", "gpu: needs CUDA (skipped without it; fails under autograde unless "
                                       "COURSE_ALLOW_CPU_GRADING=1)")
    seed = config.getoption("--seed")
    config.stash[STATE] = SessionState(seed=random.SystemRandom().randrange(2**31) if seed is None else seed)
    if config.getoption("hypothesis_seed", None) is None:
        _hypothesis_profile(state(config).seed)


def _hypothesis_profile(seed: int) -> None:
    """Property-based checks: no example database, no shrinking (a failing submission would pay for
    dozens of extra calls into its code), and examples drawn from the run's seed, so a regrade
    with the same seed checks the same inputs."""
    try:
        from hypothesis import Phase, core, settings
    except ImportError:
        return
    settings.register_profile("course", database=None, print_blob=False,
                              phases=(Phase.explicit, Phase.reuse, Phase.generate))
    settings.load_profile("course")
    core.global_force_seed = seed  # each session its own (run_hidden runs many in one kernel)
    try:  # Hypothesis mixes literals of the loaded local modules (the course's own) into its draws: any edit of
        # the course changed every property check's inputs under the same seed; the draws now depend on the
        # seed and the strategies alone
        from hypothesis.internal.conjecture import providers
        empty = providers.Constants()
        providers._get_local_constants = lambda: empty
    except (ImportError, AttributeError):
        pass


def assignment_of(path: Path) -> str | None:
    return _assignment_of(str(path))


@functools.lru_cache(maxsize=256)  # asked for every check (resolve() and a stat each time: issue 40)
def _assignment_of(path: str) -> str | None:
    try:
        rel = Path(path).resolve().relative_to(TESTS_DIR)
    except ValueError:
        return None
    return rel.parts[0] if len(rel.parts) > 1 and (TESTS_DIR / rel.parts[0] / "probes.py").exists() else None


def task_of(item) -> str | None:
    m = item.get_closest_marker("task")
    return m.args[0] if m and m.args else None


def derived_seed(base: int, i: int) -> int:
    """The i-th seed of a run whose seed is ``base`` (i = 0 is ``base`` itself)."""
    return base if i == 0 else zlib.crc32(f"{base}/{i}".encode()) % (2**31)


def _notebook_seeds(config) -> dict[str, tuple[int, set | None]]:
    out = {}
    for spec in config.getoption("--notebook-seeds"):
        path, _, n = spec.rpartition("=")
        n, _, tasks = n.partition("@")
        out[path] = (max(1, int(n)), set(tasks.split(",")) if tasks else None)
    return out


def _tasks_by_notebook(config, option: str) -> dict[str, set]:
    """PATH=TASK,TASK specs of ``option`` (--notebook-tasks, --notebook-first-failure): path -> tasks."""
    out = {}
    for spec in config.getoption(option):
        path, _, tasks = spec.rpartition("=")
        out[path] = set(filter(None, tasks.split(",")))
    return out


def _notebook_of(item) -> str | None:
    """The notebook this test item judges: its parameter, or the run's only --notebook."""
    callspec = getattr(item, "callspec", None)
    nb = callspec.params.get("course_notebook") if callspec else None
    if nb is None and len(item.config.getoption("--notebook")) == 1:
        nb = item.config.getoption("--notebook")[0]
    return nb


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    _filter_items(config, items)
    _install_reply_zip(items)
    notebooks = config.getoption("--notebook")
    if len(notebooks) > 1:
        # One notebook after another (pytest's order is module by module), so that each notebook's worker
        # is closed once its last check has run instead of all of them living until the end of the session.
        order_items(items, notebooks, _first_checks(config), _notebook_of)
        state(config).last_item = {_notebook_of(it): it.nodeid for it in items}


def order_items(items: list, notebooks: list[str], first: dict, notebook_of) -> None:
    """Sort ``items`` notebook by notebook (in ``notebooks``' order), each notebook's checks in pytest's order
    except that those ``first`` names for it (check_order_key) come before the others."""
    rank = {nb: i for i, nb in enumerate(notebooks)}
    items.sort(key=lambda it: (rank.get(notebook_of(it), -1),
                               check_order_key(it.nodeid) not in first.get(notebook_of(it), ())))  # stable


def check_order_key(nodeid: str) -> str:
    """A check's name for --notebook-first-checks: its file's name and its name within the file, without the
    notebook's and seed's ids (the same check for every notebook and seed of a run)."""
    path, _, rest = nodeid.partition("::")
    return f"{Path(path).name}::{check_key(rest)}"


def _first_checks(config) -> dict[str, frozenset]:
    path = config.getoption("--notebook-first-checks")
    if not path:
        return {}
    with open(path) as f:
        return {nb: frozenset(keys) for nb, keys in json.load(f).items()}


def _install_reply_zip(items) -> None:
    """The hidden checks' modules, and the helpers they load from their folders, zip with
    ``expect.zip``: a reply's list cut short fails the check instead of leaving entries unchecked."""
    import sys
    from . import expect
    for it in items:
        mod = getattr(it, "module", None)
        if mod is not None:
            expect.install_zip(mod)
    root = str(TESTS_DIR.resolve()) + os.sep
    for mod in list(sys.modules.values()):
        f = getattr(mod, "__file__", None)
        if isinstance(f, str) and f.startswith(root) and os.sep in f[len(root):] and \
                f[len(root):len(root) + 1].isdigit():
            expect.install_zip(mod)


def pytest_runtest_teardown(item, nextitem):
    from . import expect
    expect.forget_replies()
    nb = _notebook_of(item)
    if state(item.config).last_item.get(nb) == item.nodeid:
        for key in ((assignment_of(item.path), nb), (assignment_of(item.path), nb, "apart")):
            student = state(item.config).students.get(key)
            if student is not None:
                student.close()


def _filter_items(config, items):
    wanted = set(config.getoption("--task"))
    per_nb = _tasks_by_notebook(config, "--notebook-tasks")
    seeds = _notebook_seeds(config)
    if not wanted and not per_nb and not seeds:
        return

    def keep_item(it):
        if wanted and task_of(it) not in wanted:
            return False
        callspec = getattr(it, "callspec", None)
        nb = _notebook_of(it)
        n, only = seeds.get(nb, (1, None))
        if callspec and callspec.params.get("course_seed", 0) >= (n if only is None or task_of(it) in only else 1):
            return False
        return nb not in per_nb or task_of(it) in per_nb[nb]

    keep, drop = [], []
    for it in items:
        (keep if keep_item(it) else drop).append(it)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


def grading() -> bool:
    return os.environ.get("NBGRADER_EXECUTION") == "autograde" or os.environ.get("COURSE_JUDGE") == "1"


def _run_key(item):
    callspec = getattr(item, "callspec", None)
    nb = _notebook_of(item)
    seed = callspec.params.get("course_seed", 0) if callspec else 0
    return nb, seed, task_of(item)


def pytest_runtest_setup(item):
    key = _run_key(item)
    if key in state(item.config).failed:
        pytest.skip("not run: this task already failed under this seed")
    if item.get_closest_marker("gpu") and not torch.cuda.is_available():
        if grading() and not settings.current().allow_cpu_grading:
            pytest.fail(f"{NO_GPU_FAILED}: grade on a GPU node "
                        "(or set COURSE_ALLOW_CPU_GRADING=1 to skip GPU checks)", pytrace=False)
        pytest.skip(f"{NO_GPU_SKIPPED} (skipped on this machine)")


def reference_notebook(assignment: str) -> Path:
    return nbtools.first_in(SOURCE_DIR / assignment)


def probe_sources(assignment: str) -> dict[str, str]:
    return {assignment: (TESTS_DIR / assignment / "probes.py").read_text()}


def pytest_generate_tests(metafunc):
    nbs = metafunc.config.getoption("--notebook")
    if "course_notebook" in metafunc.fixturenames and len(nbs) > 1:
        metafunc.parametrize("course_notebook", nbs, scope="module", ids=[f"@{i}" for i in range(len(nbs))])
    n = max((n for n, _ in _notebook_seeds(metafunc.config).values()), default=1)
    if n > 1 and "course_seed" in metafunc.fixturenames:
        metafunc.parametrize("course_seed", range(n), indirect=True, ids=[f"~s{i}" for i in range(n)])


_RUN_IDS = re.compile(r"-?(?:@\d+|~s\d+)(?=[-\]])")


def check_key(name: str) -> str:
    """A check's name without the ids of the notebook and seed it ran for (its inputs depend only on
    the seed and this key, so a replay with --seed sees the same inputs)."""
    key = _RUN_IDS.sub("", name).replace("[-", "[")
    return key[:-2] if key.endswith("[]") else key


@pytest.fixture(scope="module")
def course_notebook(request):
    nbs = request.config.getoption("--notebook")
    return nbs[0] if nbs else None


@pytest.fixture(scope="module")
def student(request, course_notebook):
    config = request.config
    in_process = config.stash.get(IN_PROCESS, None)
    if in_process is not None:
        return in_process
    assignment = assignment_of(request.path)
    if assignment is None:
        pytest.fail("the 'student' fixture is only for tests under tests/<assignment>/ next to a probes.py")
    cache = state(config).students
    key = (assignment, course_notebook)
    if key not in cache:
        from .. import sandbox
        from .adapter import ProcessStudent
        mode = config.getoption("--sandbox") or ("on" if course_notebook else "auto")
        path = Path(course_notebook) if course_notebook else reference_notebook(assignment)
        many = len(config.getoption("--notebook")) > 1
        cache[key] = ProcessStudent.from_notebook(path, probe_sources(assignment), sandboxed=sandbox.resolve(mode),
                                                  fork=many)  # CourseError if the probes do not compile
    return cache[key]


@pytest.fixture(scope="module")
def student_apart(request, student, course_notebook):
    """The same notebook in a second worker with a sandbox, memory and folders of its own: a run there cannot
    see one made in ``student``'s worker (for a check that compares two runs of the submission's code which
    must not share anything but what the judge carries between them). Started on its first call."""
    key = (assignment_of(request.path), course_notebook, "apart")
    cache = state(request.config).students
    if key not in cache:
        cache[key] = student.apart()
    return cache[key]


@pytest.fixture(autouse=True)
def course_seed(request):
    """This check's run seed: the session's, or one derived from it under --notebook-seeds."""
    seed = derived_seed(state(request.config).seed, getattr(request, "param", 0))
    request.node.stash[CHECK_SEED] = seed
    return seed


@pytest.fixture
def gen(request, course_seed):
    seed = (course_seed + zlib.crc32(check_key(request.node.name).encode())) % (2**31)
    return torch.Generator().manual_seed(seed)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    seed = item.stash.get(CHECK_SEED, None)
    if seed is not None and seed != state(item.config).seed and item.config.getoption("hypothesis_seed", None) is None:
        try:
            from hypothesis import core
        except ImportError:
            pass
        else:
            core.global_force_seed = seed  # property-based checks draw from this check's seed
            try:
                yield
            finally:
                core.global_force_seed = state(item.config).seed
            return
    yield


def pytest_sessionfinish(session, exitstatus):
    st = state(session.config)
    for s in st.students.values():
        s.close()
    from . import spare
    spare.discard()  # a zygote started ahead for this session that no worker used
    out = session.config.getoption("--results-json")
    if out:
        events = [e for s in st.students.values() for e in s.events]
        starved = st.starved + [e for s in st.students.values() for e in getattr(s, "starved", [])]
        record = Results(checks=st.records, seed=st.seed, events=events, error=st.error, starved=starved)
        Path(out).write_text(record.dumps())
    st.session = session


@pytest.hookimpl(tryfirst=True)
def pytest_unconfigure(config):
    st = config.stash.get(STATE, None)
    if not EXIT_AFTER_SESSION or st is None or st.session is None:
        return
    import sys
    config.get_terminal_writer().flush()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(int(st.session.exitstatus))


def _grading_trouble(st: SessionState, exc) -> None:
    """A check that raised CourseError could not run: the session is a grading error. GraderOverloaded (the
    judge's own ranks did not finish) is also the machine's load: the batch grades the submission again alone."""
    from .adapter import CourseError, GraderOverloaded
    if isinstance(exc, CourseError) and not st.error:
        st.error = str(exc)
    if isinstance(exc, GraderOverloaded) and str(exc) not in st.starved:
        st.starved.append(str(exc))


def short_message(report, exc=None) -> str:
    """The failure's own message, without test source or pytest decoration."""
    if exc is not None:
        from .expect import CheckFailed
        from .adapter import StudentFailure
        if isinstance(exc, (CheckFailed, StudentFailure)) or type(exc) is AssertionError:
            return str(exc).strip() or "check failed"
        if isinstance(exc, pytest.fail.Exception) or isinstance(exc, pytest.skip.Exception):
            return str(exc)
        return f"the check itself raised {type(exc).__name__}: {str(exc)[:300]}"
    text = str(report.longrepr or "")
    return text.strip().splitlines()[-1][:500] if text.strip() else ""


def _explained(exc) -> bool:
    """A failure its message explains whole: a check's verdict, the submission's own failure, pytest.fail."""
    from .adapter import StudentFailure
    from .expect import CheckFailed
    return isinstance(exc, (CheckFailed, StudentFailure, pytest.fail.Exception)) or type(exc) is AssertionError


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_makereport(item, call):
    """In a grading session (one that writes --results-json), a failure its message explains is reported by
    that message, not by pytest's long traceback: nothing reads that text (the record keeps the message), and
    formatting it parsed the source of every frame down into the submission, about a sixth of a verdict run's
    CPU (issue 40). A check that itself breaks, and any run without --results-json, keeps the whole traceback."""
    excinfo = call.excinfo
    if excinfo is None or not item.config.getoption("--results-json") or not _explained(excinfo.value):
        return None
    from _pytest.reports import TestReport
    exc = excinfo.value
    sections = [(f"Captured {key} {when}", content) for when, key, content in item._report_sections]
    return TestReport(item.nodeid, item.location, dict.fromkeys(item.keywords, 1), "failed",
                      f"{type(exc).__name__}: {str(exc)[:2000]}", call.when, sections, call.duration,
                      call.start, call.stop, user_properties=item.user_properties)


@pytest.hookimpl(hookwrapper=True, specname="pytest_runtest_makereport")
def pytest_record_check(item, call):  # pytest reads only names that start with pytest_
    outcome = yield
    rep = outcome.get_result()
    exc = call.excinfo.value if call.excinfo is not None else None  # not kept on the report: xdist ships it
    if rep.when == "call" or (rep.when == "setup" and rep.outcome != "passed"):
        doc = (item.function.__doc__ or "").strip().splitlines() if hasattr(item, "function") else []
        callspec = getattr(item, "callspec", None)
        notebook = _notebook_of(item)
        param_id = check_key(f"[{callspec.id}]")[1:-1] if callspec else ""
        if doc and param_id:
            doc[0] = f"{doc[0]} [{param_id}]"
        status = "skipped" if rep.skipped else ("passed" if rep.passed else "failed")
        msg = "" if status == "passed" else short_message(rep, exc)
        if status == "skipped" and isinstance(rep.longrepr, tuple):
            msg = str(rep.longrepr[2]).replace("Skipped: ", "")
        st = state(item.config)
        _grading_trouble(st, exc)
        # What the submission's worker said is quoted within its budget (course.judge.worker_text).
        student = st.students.get((assignment_of(item.path), notebook))
        heard = getattr(student, "heard", None)
        if msg and heard is not None:
            from ..plain import cap
            msg = heard.limit(cap(msg, 1_800))
            if (heard.left <= 0 or heard.full) and not heard.reported:
                heard.reported = True  # once, in the grading log
                student.events.append(f"its worker's text in the feedback reached the budget of "
                                      f"{heard.per_submission} characters; later quotes are cut")
        seed = item.stash.get(CHECK_SEED, None)
        if seed is None:  # not set up (skipped before its fixtures ran)
            seed = derived_seed(st.seed, callspec.params.get("course_seed", 0) if callspec else 0)
        if status == "failed":
            key = _run_key(item)
            if key[2] in _tasks_by_notebook(item.config, "--notebook-first-failure").get(key[0], ()):
                st.failed.add(key)
            from ..plain import cap
            msg = cap(msg, 2_000) + f"  [seed {seed}]"
        st.records.append(Check(
            nodeid=item.nodeid, name=item.name, notebook=notebook, title=doc[0] if doc else item.name,
            assignment=assignment_of(item.path), task=task_of(item), status=status, message=msg, seed=seed,
            weight=float((item.get_closest_marker("task").kwargs.get("weight", 1.0))
                         if item.get_closest_marker("task") else 1.0),
            seconds=round(float(getattr(rep, "duration", 0.0)), 3),
            essential=item.get_closest_marker("essential") is not None,
            penalty=item.get_closest_marker("penalty") is not None))
