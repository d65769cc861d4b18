# Every hidden suite talks to submissions through course.judge.pytest_plugin
# (fixtures `student` and `gen`, markers `task` and `gpu`).
import os
import re
import tempfile

import pytest

pytest_plugins = ["course.judge.pytest_plugin"]
if os.environ.get("COURSE_TEST_COST"):  # make test-cost: each test's CPU and wall time, per file
    pytest_plugins.append("course.authoring.suite_cost")

# Under `pytest -n N` (make test) work is handed out in groups: a topic's suite, one example-submission
# run per topic, or one module; a group stays on one worker (its module fixtures run once), and the
# longest groups go out first.
LONGEST_FIRST = [  # by the last clean-clone run's durations (seconds on 2 cores)
    "test_hostile", "test_exchange", "test_round_trip",  # 805, 134; the round trip: a group per topic
    "test_examples_apart", "test_incidents", "test_submissions-16-03", "test_pipeline_stop",  # new this session
    "test_submissions-15-10", "test_submissions-15-08", "test_batch", "test_submissions-15-03",  # 159, 130, 93, 92
    "test_submissions-15-04", "test_submissions-15-06", "test_submissions-15-07", "test_submissions-00-02",  # 89-78
    "test_submissions-15-01", "test_submissions-15-05", "test_submissions-15-09", "test_submissions-00-01",  # 66-59
    "test_submissions-00-03", "test_scaffold-algorithm", "test_scaffold-capstone", "test_submissions-15-02",  # 57-46
    "test_student_browser", "test_student_release"]


_TOPICS: list[str] | None = None


def run_topics() -> list[str]:
    """The round trip's topics as this pytest process first saw them. A topic that appears during the run
    (another session's work in the same checkout) must not move a test to another group: xdist's
    scheduler looks each group up again when its tests end (a KeyError there stopped a whole run)."""
    global _TOPICS
    if _TOPICS is None:
        from tests.pipeline_run import graded_topics
        _TOPICS = graded_topics()
    return _TOPICS


def pytest_configure(config):
    if not hasattr(config, "workerinput"):
        run_topics()  # the controller's view, taken before the workers collect
    if not config.getoption("--notebook", None):  # this repository's tests, not a judge session on a notebook
        from course.grading.class_run import gradebook_head
        gradebook_head.install()  # the gradebooks tests create: no `alembic heads` subprocess each
    else:  # a judge session (root on the grading machine), run in a folder of its own: tmp_path goes there, never
        # to the shared /tmp's pytest-of-<user>, which any account can make first; pytest then refuses it, and a check
        # that takes tmp_path (15-02's) failed for every student (red team 12). Read when tmp_path is first used.
        os.environ["PYTEST_DEBUG_TEMPROOT"] = os.getcwd()


def group_of(nodeid: str) -> str:
    path, _, rest = nodeid.partition("::")
    parts = path.split("/")
    if parts[0] == "tests":
        parts = parts[1:]
    if len(parts) > 1:
        return parts[0]  # tests/<topic>/...: the topic's suite shares one judge worker
    module = parts[0].removesuffix(".py")
    param = re.search(r"\[([\w\-.]+)\]$", rest)
    if module == "test_round_trip" and param:  # the topics graded in one run (tests/pipeline_run.py)
        from tests.pipeline_run import run_of
        topics = run_topics()
        if param.group(1) in topics:
            return f"{module}-{'+'.join(run_of(param.group(1), topics))}"
    if module == "test_hostile" and param:  # its parts, each one pipeline run (PARTS there): ids start with the part
        return f"{module}-{param.group(1).split('-')[0]}"
    if module in ("test_submissions", "test_scaffold", "test_round_trip") and param:
        return f"{module}-{param.group(1)}"  # one group per assignment
    return module


def _rank(nodeid: str) -> int:
    g = group_of(nodeid)
    if g not in LONGEST_FIRST and g.startswith(("test_round_trip-", "test_hostile-")):
        g = g.split("-")[0]  # each run of the round trip and the hostile batch ranks where the whole one did
    elif g not in LONGEST_FIRST and g.startswith("test_submissions-"):
        g = "test_submissions-16-03"  # a new topic's verdicts: with the longest, not last (its cost is unknown)
    return LONGEST_FIRST.index(g) if g in LONGEST_FIRST else len(LONGEST_FIRST)


def pytest_collection_modifyitems(config, items):
    if hasattr(config, "workerinput"):  # an xdist worker: the scheduler follows collection order
        items.sort(key=lambda it: _rank(it.nodeid))


try:
    from xdist.scheduler import LoadScopeScheduling
except ImportError:  # pytest-xdist not installed: tests run one at a time
    LoadScopeScheduling = None

if LoadScopeScheduling is not None:
    import pytest

    @pytest.hookimpl(optionalhook=True)  # judge sessions run without xdist (course.judge.suite.AUTOLOADED)
    def pytest_xdist_make_scheduler(config, log):
        class ByGroup(LoadScopeScheduling):
            def _split_scope(self, nodeid):
                return group_of(nodeid)

        config.option.loadscopereorder = False
        return ByGroup(config, log)


_TEMPORARY = (os.environ.get("TMPDIR"), tempfile.tempdir)  # as this process started (a judge session: adopted)


@pytest.fixture(autouse=True)
def _temporary_folder_kept():
    """A test or fixture that loads the grader's configuration in this process (``tempdirs.adopt``) moves TMPDIR
    and tempfile's folder into the grader's private root; the next test on the worker sees the machine's own."""
    yield
    env, folder = _TEMPORARY
    if env is None:
        os.environ.pop("TMPDIR", None)
    else:
        os.environ["TMPDIR"] = env
    tempfile.tempdir = folder
