"""Held-out round 13: correct, written unusually. Clipping measures with torch._foreach_norm; the
sampler seeds its generator from hash((seed, epoch)) (ints hash the same in every process); NumPy's
state is kept as the non-legacy dict of np.random.get_state(legacy=False); the EMA blends with
torch._foreach_lerp_ (what AveragedModel's EMA function does); to_device maps over the batch with
torch.utils._pytree (which keeps namedtuples and dict subclasses as they are)."""
from course.grading.class_run.submissions import edited

EXPECT = {"clipping": "pass", "sampler": "pass", "rng": "pass", "callbacks": "pass", "trainer": "pass",
          "checkpoint": "pass", "resume": "pass"}
CELLS = {
    "clip_impl": edited(
        "15-10", "clip_impl",
        ("        norms = torch.stack([torch.linalg.vector_norm(g.detach(), 2).to(grads[0].device) for g in grads])",
         "        norms = torch.stack([n.to(grads[0].device) for n in torch._foreach_norm([g.detach() for g in grads], 2)])")),
    "sampler_impl": edited(
        "15-10", "sampler_impl",
        ("        g = torch.Generator().manual_seed(self.seed * 1_000_003 + int(epoch))",
         "        g = torch.Generator().manual_seed(hash((self.seed, int(epoch))) & 0x7FFF_FFFF_FFFF_FFFF)")),
    "rng_impl": edited(
        "15-10", "rng_impl",
        ("    kind, keys, pos, has_gauss, cached = np.random.get_state()\n", ""),
        ("        \"numpy\": (kind, torch.from_numpy(keys.astype(np.int64)), int(pos), int(has_gauss), float(cached)),",
         "        \"numpy\": np.random.get_state(legacy=False),"),
        ("    kind, keys, pos, has_gauss, cached = state[\"numpy\"]\n"
         "    keys = keys.numpy() if isinstance(keys, torch.Tensor) else np.asarray(keys)\n"
         "    np.random.set_state((kind, keys.astype(np.uint32), int(pos), int(has_gauss), float(cached)))",
         "    np.random.set_state(state[\"numpy\"])")),
    "callbacks_impl": edited(
        "15-10", "callbacks_impl",
        ("                for s, w in zip(self.shadow, weights):\n"
         "                    s.mul_(self.decay).add_(w, alpha=1.0 - self.decay)",
         "                torch._foreach_lerp_(self.shadow, weights, 1.0 - self.decay)")),
    "trainer_impl": edited(
        "15-10", "trainer_impl",
        ("        if isinstance(batch, torch.Tensor):\n            return batch.to(self.device)\n"
         "        if isinstance(batch, dict):\n            return {k: self.to_device(v) for k, v in batch.items()}\n"
         "        if isinstance(batch, (list, tuple)):\n            moved = [self.to_device(v) for v in batch]\n"
         "            return type(batch)(moved) if isinstance(batch, list) else tuple(moved)\n        return batch",
         "        from torch.utils import _pytree\n"
         "        return _pytree.tree_map(lambda v: v.to(self.device) if isinstance(v, torch.Tensor) else v, batch)")),
}
