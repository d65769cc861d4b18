"""Red team 22: clip_grad_norm handed to torch.nn.utils.clip_grad_norm_ on a thread the cell started when it ran (a
queue's server), fed inside the call. The check's profile hook (probelib.functions_entered) is the calling thread's
and that of the Python threads the call starts: it saw nothing of clip_grad.py. The text says: "The point is to
write it yourself: the grader compares your function with `torch.nn.utils.clip_grad_norm_`"."""
from course.grading.class_run.submissions import edited

CELLS = {"clip_norm_impl": edited(
    "15-04", "clip_norm_impl",
    ("    grads = [p.grad for p in parameters if p.grad is not None]\n"
     "    if not grads:\n"
     "        return torch.tensor(0.0)\n"
     "    norm_type = float(norm_type)\n"
     "    if norm_type == math.inf:\n"
     "        per_tensor = [g.detach().abs().max() for g in grads]\n"
     "        total = torch.stack([t.to(grads[0].device) for t in per_tensor]).max()\n"
     "    else:\n"
     "        per_tensor = [torch.linalg.vector_norm(g.detach(), norm_type) for g in grads]\n"
     "        total = torch.linalg.vector_norm(torch.stack([t.to(grads[0].device) for t in per_tensor]), norm_type)\n"
     "    coef = torch.clamp(max_norm / (total + 1e-6), max=1.0)\n"
     "    with torch.no_grad():\n"
     "        for g in grads:\n"
     "            g.mul_(coef.to(g.device, g.dtype))\n"
     "    return total\n",
     "    params = [p for p in parameters if p.grad is not None]\n"
     "    if not params:\n"
     "        return torch.tensor(0.0)\n"
     "    _JOBS.put(lambda: torch.nn.utils.clip_grad_norm_(params, max_norm, norm_type))\n"
     "    return _DONE.get()\n")) + '''

import queue as _queue
import threading as _threading

_JOBS, _DONE = _queue.Queue(), _queue.Queue()


def _serve():
    while True:
        job = _JOBS.get()
        try:
            _DONE.put(job())
        except Exception as exc:  # noqa: BLE001
            _DONE.put(exc)


_threading.Thread(target=_serve, daemon=True).start()
'''}
EXPECT = {"clip_grad_norm": "fail"}
