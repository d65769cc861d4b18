"""Correct, written unusually (held-out round 12): clip_grad_norm with torch._foreach_norm and
torch._foreach_mul_, EarlyStopping by a sign flip (mode "max" becomes "min" on -value, best kept as given),
CheckpointCallback pruning with glob and sorting by parsed step numbers. Every task it touches must pass."""
from course.grading.class_run.submissions import edited

CELLS = {
    "clip_impl": '''
def clip_grad_norm(parameters, max_norm: float) -> torch.Tensor:
    """Clip the gradients of ``parameters`` in place to a global L2 norm of at most ``max_norm``."""
    grads = [p.grad for p in list(parameters) if p.grad is not None]
    if len(grads) == 0:
        return torch.zeros(())
    with torch.no_grad():
        per = torch._foreach_norm([g.detach() for g in grads], 2)
        total = torch.linalg.vector_norm(torch.stack([n.to(grads[0].device) for n in per]), 2)
        factor = (max_norm / (total + 1e-6)).clamp(max=1.0)
        by_key = {}
        for g in grads:
            by_key.setdefault((g.device, g.dtype), []).append(g)
        for (dev, dt), gs in by_key.items():
            torch._foreach_mul_(gs, factor.to(device=dev, dtype=dt))
    return total
''',
    "callbacks_impl": edited("15-10", "callbacks_impl", (
        """        if self.best is None:
            return True
        if self.mode == "min":
            return value < self.best - self.min_delta
        return value > self.best + self.min_delta""",
        """        sign = 1.0 if self.mode == "min" else -1.0
        return self.best is None or sign * value < sign * self.best - self.min_delta""")),
    "checkpoint_impl": edited("15-10", "checkpoint_impl", (
        """        found = []
        for name in os.listdir(self.dirpath):
            m = re.fullmatch(r"step-(\\d+)\\.pt", name)
            if m:
                found.append((int(m.group(1)), name))
        for _, name in sorted(found)[:-self.keep_last] if self.keep_last > 0 else sorted(found):
            os.remove(os.path.join(self.dirpath, name))""",
        """        import glob
        files = [f for f in glob.glob(os.path.join(glob.escape(self.dirpath), "step-*.pt"))
                 if os.path.basename(f)[5:-3].isdigit()]
        files.sort(key=lambda f: int(os.path.basename(f)[5:-3]), reverse=True)
        for f in files[max(self.keep_last, 0):]:
            os.remove(f)""")),
}
EXPECT = {"clipping": "pass", "callbacks": "pass", "checkpoint": "pass"}
