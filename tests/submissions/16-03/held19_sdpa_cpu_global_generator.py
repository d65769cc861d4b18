"""Known-wrong scaled_dot_product_attention (held-out round 19, generator=None x device): with generator=None
the dropout draw is taken from torch.default_generator, the CPU's global generator, passed explicitly. On the
CPU that is torch.rand's default; on a GPU torch.rand's default is that device's generator and an explicit CPU
generator makes torch.rand raise, where the text says the draw comes from the global generator (torch.rand's
default) and the function runs on a GPU as on the CPU."""
from course.grading.class_run.submissions import edited

CELLS = {"sdpa_impl": edited(
    "16-03", "sdpa_impl",
    ("        u = torch.rand(w.shape, generator=generator, dtype=w.dtype, device=w.device)",
     "        gen = generator if generator is not None else torch.default_generator  # the global generator\n"
     "        u = torch.rand(w.shape, generator=gen, dtype=w.dtype, device=w.device)"))}
EXPECT = {"sdpa": "fail"}
