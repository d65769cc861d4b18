"""Known-wrong Value whose use of torch.autograd is hidden from the worker's own record (lead, issue 38).

The engine is gap_engine_torch_autograd_inside's (shadow tensors that require grad, leaf gradients from
torch.autograd.grad: right values and gradients, against "it must not use torch.autograd"). An extra cell puts the
relay of tests/submissions/_hostile/_forge.py between the judge and the worker, as a student who has read the
worker's protocol could: every reply of the probe ``engine_run`` leaves with an empty ``autograd`` list, so the record
kept inside the submission's process says torch's autograd never ran (a call the worker failed because the relay's
own threads ran in the check's window is sent again, unseen by the judge). What the kernel counts outside that process
(course/sandbox/native_calls.py: autograd's engine ran on every backward) still fails the check where the grader is
root; without root the forgery would keep the mark (docs/security.md)."""
import runpy
from pathlib import Path

_HERE = Path(__file__).resolve().parent
CELLS = runpy.run_path(str(_HERE / "gap_engine_torch_autograd_inside.py"))["CELLS"]
_FORGE = runpy.run_path(str(_HERE.parent / "_hostile" / "_forge.py"))
APPEND = [_FORGE["rewriting"]('probe == "engine_run" and isinstance(r, dict)', '{**r, "autograd": []}',
                            retry="HiddenFromProbe")]
EXPECT = {"engine": "fail"}
