"""tests/example_reach.py: which tasks a correct example is judged on (tests/test_submissions.py judges it nowhere
else), on a small course of its own and on the real topics."""
import json

import nbformat
import pytest

from tests import example_reach

NOTEBOOK = [  # (grade_id or None, solution?, test task or None, source)
    (None, False, None, "import torch\nDEVICE = 'cpu'"),
    ("scale_impl", True, None, "def scale(x):\n    return 2 * x"),
    ("scale_test", False, "scale", 'run_hidden("toy", "scale", globals())'),
    ("shift_impl", True, None, "def shift(x):\n    return x + 1"),
    ("shift_test", False, "shift", 'run_hidden("toy", "shift", globals())'),
    ("twice_impl", True, None, "def twice(x):\n    return scale(scale(x))"),  # reads task scale's function
    ("twice_test", False, "twice", 'run_hidden("toy", "twice", globals())'),
    (None, False, None, "def pipeline(x):\n    return shift(x)\nout = pipeline(torch.ones(2))"),  # given code
    ("wrap_impl", True, None, "def wrap(x):\n    y = x\n    return y"),
    ("wrap_test", False, "wrap", 'run_hidden("toy", "wrap", globals())'),
]
TESTS = {
    "probes.py": "def run_scale(ns, x):\n    return ns['scale'](x)\n\n"
                 "def run_pipe(ns, x):\n    return _call(ns, x)\n\n"
                 "def _call(ns, x):\n    return ns['pipeline'](x)\n\n"
                 "def run_wrap(ns, x):\n    return ns['wrap'](x), ns.get('out')\n",
    "test_scale.py": "import pytest\n@pytest.mark.task('scale')\ndef test_a(student):\n    student.call('run_scale', x=1)\n",
    "test_shift.py": "import pytest\n@pytest.mark.task('shift')\ndef test_b(student):\n    student.call('run_pipe', x=1)\n",
    "test_twice.py": "import pytest\n@pytest.mark.task('twice')\ndef test_c(student):\n"
                     "    student.call('exec_snippet', code='r = twice(x)')\n",
    "test_wrap.py": "import pytest\n@pytest.mark.task('wrap')\ndef test_d(student):\n    student.call('run_wrap', x=1)\n"
                    "    student.call('run_pipe', x=2)\n",
}


@pytest.fixture
def toy(tmp_path, monkeypatch):
    nb = nbformat.v4.new_notebook()
    for gid, solution, task, source in NOTEBOOK:
        cell = nbformat.v4.new_code_cell(source)
        if gid:
            cell.metadata["nbgrader"] = {"grade_id": gid, "solution": solution, "grade": task is not None,
                                         "locked": task is not None, "points": 1 if task else 0}
        nb.cells.append(cell)
    (tmp_path / "source" / "toy").mkdir(parents=True)
    (tmp_path / "source" / "toy" / "toy.ipynb").write_text(json.dumps(nb))
    (tmp_path / "tests" / "toy").mkdir(parents=True)
    for name, text in TESTS.items():
        (tmp_path / "tests" / "toy" / name).write_text(text)
    monkeypatch.setattr(example_reach, "SOURCE_DIR", tmp_path / "source")
    monkeypatch.setattr(example_reach, "TESTS_DIR", tmp_path / "tests")
    example_reach.names_checks_read.cache_clear()
    yield lambda cells, **extra: example_reach.tasks_reached("toy", {"CELLS": cells, **extra})
    example_reach.names_checks_read.cache_clear()


def test_a_cell_reaches_its_own_task_only_where_nothing_reads_it(toy):
    assert toy({"wrap_impl": "def wrap(x):\n    return x.clone().view_as(x)"}) == {"wrap"}


def test_a_function_another_task_calls_reaches_that_task(toy):
    assert toy({"scale_impl": "def scale(x):\n    return x + x"}) == {"scale", "twice"}


def test_through_given_code_a_check_calls(toy):
    """shift is read by the given ``pipeline``, which a probe of task wrap's calls through a helper; ``out``, a
    demo's variable bound from it, reaches nothing (demos do not run under autograde)."""
    assert toy({"shift_impl": "def shift(x):\n    return 1 + x"}) == {"shift", "wrap"}


def test_a_helper_a_check_names_in_a_snippet(toy):
    """``twice`` appears only inside a string the check runs: still read."""
    assert "twice" in toy({"twice_impl": "def twice(x):\n    return 4 * x"})


def test_a_helper_name_shared_with_another_task_reaches_it(toy):
    """A replaced cell defining ``scale`` as well (a helper of the same name) reaches scale's task and its readers."""
    assert toy({"wrap_impl": "def scale(x):\n    return 3 * x\ndef wrap(x):\n    return x"}) == \
        {"wrap", "scale", "twice"}


@pytest.mark.parametrize("extra", [{"APPEND": ["x = 1"]}, {"mutate": lambda nb: None}, {"BASE": "release"}])
def test_code_beyond_solution_cells_reaches_every_task(toy, extra):
    assert toy({"wrap_impl": "def wrap(x):\n    return x"}, **extra) is None


def test_a_cell_no_task_owns_or_that_does_not_parse_reaches_every_task(toy):
    assert toy({"nope": "x = 1"}) is None
    assert toy({"wrap_impl": "def wrap(x):\n    return x +"}) is None


def test_real_topics_keep_the_dependencies_their_text_states():
    """16-05: QATLinear's forward uses fake_quantize (the qat task reads the fake_quant cell); 15-04: nt_xent is
    cross-entropy over similarities (it reads label_smoothing's function)."""
    from course import notebook as nbtools
    from course import SOURCE_DIR
    for topic, reader, read in (("16-05", "qat", "fake_quant"), ("15-04", "nt_xent", "label_smoothing")):
        nb = nbtools.read(nbtools.first_in(SOURCE_DIR / topic))
        from course.authoring.mutants import tasks_of_cells
        gid = next(g for g, t in tasks_of_cells(nb).items() if t == read)
        source = next(c.source for c in nb.cells if nbtools.nbgrader_meta(c).get("grade_id") == gid)
        reached = example_reach.tasks_reached(topic, {"CELLS": {gid: source + "\n"}})
        assert reached is not None and {read, reader} <= reached, (topic, reached)
