"""Three realistic mistakes in different tasks; everything else is the reference.

- clipping: each gradient is clipped to max_norm on its own (per-tensor, not the global norm);
- callbacks: the EMA blends with the weights the wrong way round (decay applied to the new weights);
- checkpoint: atomic_save is a plain torch.save(obj, path), so a crash mid-write corrupts last.pt.
"""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {
    "clip_impl": '''def clip_grad_norm(parameters, max_norm: float) -> torch.Tensor:
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    total = torch.sqrt(sum((g.detach() ** 2).sum() for g in grads))
    with torch.no_grad():
        for g in grads:
            n = g.norm()
            if n > max_norm:
                g.mul_(max_norm / (n + 1e-6))
    return total
''',
    "callbacks_impl": _c["edited"]("callbacks_impl", "s.mul_(self.decay).add_(w, alpha=1.0 - self.decay)",
                                   "s.mul_(1.0 - self.decay).add_(w, alpha=self.decay)"),
    "checkpoint_impl": _c["edited"]("checkpoint_impl", """    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=".pt")
    try:
        with os.fdopen(fd, "wb") as f:
            torch.save(obj, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
""", """    torch.save(obj, path)
"""),
}
EXPECT = {"clipping": "fail", "callbacks": "fail", "checkpoint": "fail", "sampler": "pass", "rng": "pass",
          "trainer": "pass", "resume": "pass"}
JUDGE_PASS = True  # judged on its passing tasks too: a mistake in one task costs no points in another
