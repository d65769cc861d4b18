"""Held-out round 9: with dropout_p > 0 and no generator given, the draw comes from a fresh generator seeded with 0
instead of the global one, so every call drops the same pairs whatever torch.manual_seed says. The text fixes the
draw as torch.rand(w.shape, generator=generator, ...), which with generator=None is the global generator."""
from course.grading.class_run.submissions import edited

EXPECT = {"sdpa": "fail", "mha": "pass", "block": "pass", "embed": "pass", "kv_cache": "pass", "blocked": "pass"}
CELLS = {"sdpa_impl": edited(
    "16-03", "sdpa_impl",
    ("        u = torch.rand(w.shape, generator=generator, dtype=w.dtype, device=w.device)",
     "        if generator is None:  # reproducible by default\n"
     "            generator = torch.Generator(device=w.device).manual_seed(0)\n"
     "        u = torch.rand(w.shape, generator=generator, dtype=w.dtype, device=w.device)"))}
