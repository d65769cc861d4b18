"""Red team 23: clip_grad_norm handed to torch.nn.utils.clip_grad_norm_ on a thread made inside the call by ctypes'
pthread_create (no _thread, no audit event, no profile hook), born and gone inside the call. The text says:
"The point is to write it yourself: the grader compares your function with `torch.nn.utils.clip_grad_norm_`"."""
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
     "    import ctypes\n"
     "    box = []\n"
     "    def _run(arg):\n"
     "        box.append(torch.nn.utils.clip_grad_norm_(params, max_norm, norm_type))\n"
     "        return 0\n"
     "    cb = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p)(_run)\n"
     "    tid = ctypes.c_ulong()\n"
     "    libc = ctypes.CDLL(None)\n"
     "    libc.pthread_create(ctypes.byref(tid), None, cb, None)\n"
     "    libc.pthread_join(tid, None)\n"
     "    return box[0]\n"))}
EXPECT = {"clip_grad_norm": "fail"}
