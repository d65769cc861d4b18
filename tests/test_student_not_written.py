"""course.student.checks makes IPython show an exercise that is not written yet (nbgrader's stub,
``raise NotImplementedError()`` under ``# YOUR CODE HERE``) as one line naming it, wherever it is called
from; a NotImplementedError with a message of its own, or raised outside the notebook's cells, keeps its
traceback. Runs in a fresh interpreter (the handler belongs to the IPython shell it is imported in)."""
import json
import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent('''
    import json
    from IPython.core.interactiveshell import InteractiveShell
    shell = InteractiveShell.instance()
    shown = []
    shell._showtraceback = lambda etype, value, stb: shown.append(stb)
    cells = [
        "from course.student.checks import expect",
        "class ScaledMul:\\n    @staticmethod\\n    def forward(x):\\n        # YOUR CODE HERE\\n        raise NotImplementedError()",
        "y = 1\\nScaledMul.forward(2)",
        "list(map(ScaledMul.forward, [1]))",
        "raise NotImplementedError()",
        "raise NotImplementedError('an op this backend lacks')",
        "ns = {}\\nexec(compile('def lib():\\\\n    raise NotImplementedError()', 'a_library.py', 'exec'), ns)\\nns['lib']()",
        "def launch():\\n    raise NotImplementedError('rank 0: ring_pass is not written yet')",
        "launch()",
    ]
    out = []
    for c in cells:
        shown.clear()
        r = shell.run_cell(c)
        out.append({"error": type(r.error_in_exec).__name__ if r.error_in_exec else None,
                    "shown": [line for stb in shown for line in stb]})
    print(json.dumps(out))
''')


def test_stub_errors_are_one_line_and_others_keep_their_traceback():
    r = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    res = json.loads(r.stdout.strip().splitlines()[-1])
    one = lambda i: res[i]["shown"]  # noqa: E731
    assert all(x["error"] == "NotImplementedError" for x in res[2:7] + res[8:]), res
    assert one(2) == ["\x1b[0;31mNotImplementedError\x1b[0m: ScaledMul.forward is not written yet "
                      "(line 2 of this cell needs it)"], one(2)
    assert one(3) == ["\x1b[0;31mNotImplementedError\x1b[0m: ScaledMul.forward is not written yet "
                      "(line 1 of this cell needs it)"], one(3)  # called through library code (map)
    assert one(4) == ["\x1b[0;31mNotImplementedError\x1b[0m: this cell is not written yet"], one(4)
    assert len(one(5)) > 1 and "an op this backend lacks" in one(5)[-1], one(5)  # its own message: traceback
    assert len(one(6)) > 1, one(6)  # a bare one raised outside the notebook's cells: traceback
    assert one(8) == ["\x1b[0;31mNotImplementedError\x1b[0m: rank 0: ring_pass is not written yet "
                      "(line 1 of this cell needs it)"], one(8)
