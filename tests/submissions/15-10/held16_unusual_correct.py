"""Correct, written unusually (round 16): clip_grad_norm with torch._foreach_norm, a sampler seeded by a
mixed 63-bit integer and iterated from a slice, EarlyStopping by a sign flip, the EMA with
torch._foreach_lerp_ (what AveragedModel itself does), atomic_save with NamedTemporaryFile(delete=False),
and to_device with torch.utils._pytree.tree_map. Every task must keep full marks."""
from course.grading.class_run.submissions import edited

CELLS = {
    "clip_impl": edited("15-10", "clip_impl", (
        '''    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    with torch.no_grad():
        norms = torch.stack([torch.linalg.vector_norm(g.detach(), 2).to(grads[0].device) for g in grads])
        total = torch.linalg.vector_norm(norms, 2)''',
        '''    grads = []
    for p in parameters:
        if p.grad is not None:
            grads.append(p.grad)
    if len(grads) == 0:
        return torch.zeros(())
    with torch.no_grad():
        per_tensor = torch._foreach_norm([g.detach() for g in grads], 2)
        total = torch.linalg.vector_norm(torch.stack([n.to(grads[0].device) for n in per_tensor]), 2)''')),
    "sampler_impl": edited("15-10", "sampler_impl", (
        "        g = torch.Generator().manual_seed(self.seed * 1_000_003 + int(epoch))\n",
        "        mixed = (self.seed * 0x9E3779B97F4A7C15 + int(epoch) * 0xBF58476D1CE4E5B9) % (1 << 63)\n"
        "        g = torch.Generator()\n        g.manual_seed(mixed)\n"), (
        '''        for i in range(start, self.num_samples):
            self.pos = i + 1  # counted when handed out: code after `yield` runs only on the next request
            yield order[i]''',
        '''        for offset, index in enumerate(order[start:]):
            self.pos = start + offset + 1
            yield index''')),
    "callbacks_impl": edited("15-10", "callbacks_impl", (
        '''        if self.mode == "min":
            return value < self.best - self.min_delta
        return value > self.best + self.min_delta''',
        '''        sign = 1.0 if self.mode == "min" else -1.0
        return sign * value < sign * self.best - self.min_delta'''), (
        '''                for s, w in zip(self.shadow, weights):
                    s.mul_(self.decay).add_(w, alpha=1.0 - self.decay)''',
        '''                torch._foreach_lerp_(self.shadow, weights, 1.0 - self.decay)''')),
    "checkpoint_impl": edited("15-10", "checkpoint_impl", (
        '''    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=".pt")
    try:
        with os.fdopen(fd, "wb") as f:''',
        '''    f = tempfile.NamedTemporaryFile(dir=folder, delete=False, suffix=".partial")
    tmp = f.name
    try:
        with f:''')),
    "trainer_impl": edited("15-10", "trainer_impl", (
        '''        if isinstance(batch, torch.Tensor):
            return batch.to(self.device)
        if isinstance(batch, dict):
            return {k: self.to_device(v) for k, v in batch.items()}
        if isinstance(batch, (list, tuple)):
            moved = [self.to_device(v) for v in batch]
            return type(batch)(moved) if isinstance(batch, list) else tuple(moved)
        return batch''',
        '''        import torch.utils._pytree as pytree
        return pytree.tree_map(lambda v: v.to(self.device) if isinstance(v, torch.Tensor) else v, batch)''')),
}
EXPECT = {"clipping": "pass", "sampler": "pass", "callbacks": "pass", "checkpoint": "pass", "trainer": "pass",
          "rng": "pass", "resume": "pass"}
