"""Known-wrong result_dtype whose call of torch.result_type is hidden from the worker's own record (lead, issue 38).

result_dtype is gap_rd_calls_result_type's (PyTorch's answer, against "without calling torch.result_type"). An extra
cell puts the relay of tests/submissions/_hostile/_forge.py between the judge and the worker, as a student who has
read the worker's protocol could: every reply of a result_dtype probe leaves with its list of forbidden calls empty,
and a call the worker failed because the relay's own threads ran in the check's window is sent again, unseen by the
judge. What the kernel counts outside that process (course/sandbox/native_calls.py: PyTorch's promotion functions)
still fails test_builds_the_table_itself where the grader is root (tests/test_native_calls.py)."""
import runpy
from pathlib import Path

_HERE = Path(__file__).resolve().parent
CELLS = runpy.run_path(str(_HERE / "gap_rd_calls_result_type.py"))["CELLS"]
_FORGE = runpy.run_path(str(_HERE.parent / "_hostile" / "_forge.py"))
APPEND = [_FORGE["rewriting"]('probe.startswith("result_dtype") and isinstance(r, dict) and "forbidden_calls" in r',
                              '{**r, "forbidden_calls": []}', retry="HiddenFromProbe")]
EXPECT = {"result_dtype": "fail"}
