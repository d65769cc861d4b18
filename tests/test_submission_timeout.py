"""The per-submission time limit holds on the path nbgrader takes (nbconvert's sync preprocess):
a notebook whose cells each stay under the cell limit is still stopped at the submission's deadline,
inside the cell that crosses it, and the graded cells after it say why they did not run."""
import time

from nbformat.v4 import new_code_cell, new_notebook
from traitlets.config import Config

from course.grading.config import install_sandbox_kernel
from course.grading.autograde.preprocessors import SafeExecute


def _meta(grade_id, grade=False):
    return {"nbgrader": {"grade": grade, "solution": False, "grade_id": grade_id, "locked": grade,
                         "schema_version": 3, **({"points": 1} if grade else {})}}


def test_deadline_stops_the_cell_that_crosses_it():
    cells = [new_code_cell("import time\ntime.sleep(2)\nprint('one')", metadata=_meta("a")),
             new_code_cell("time.sleep(30)\nprint('two')", metadata=_meta("b")),
             new_code_cell("print('three')", metadata=_meta("t", grade=True))]
    nb = new_notebook(cells=cells, metadata={"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                            "language": "python"}})
    c = Config()
    install_sandbox_kernel(c)
    # the kernel boots (and imports torch) within the limit too; each cell alone is under 60 s
    ex = SafeExecute(config=c, submission_timeout=10, timeout=60)
    t0 = time.monotonic()
    nb, _ = ex.preprocess(nb, {"nbgrader": {"student": "slow"}})
    took = time.monotonic() - t0
    assert took < 28, f"the 30 s cell ran on past the 10 s submission limit ({took:.0f} s)"
    assert nb.cells[0].outputs[0]["text"] == "one\n"
    assert not any("two" in (o.get("text") or "") for o in nb.cells[1].outputs)
    assert nb.cells[2].outputs[0]["evalue"].startswith("the notebook ran past the 10 s limit per submission")
