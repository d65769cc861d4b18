"""Known-wrong scaled_dot_product_attention (round 16): the dropout draw is made in at least float32
("float16 uniforms are too coarse"), so for float16 weights u is not torch.rand(w.shape, generator=...,
dtype=w.dtype) and other weights are dropped than the text fixes."""
from course.grading.class_run.submissions import edited

CELLS = {"sdpa_impl": edited("16-03", "sdpa_impl",
    ("u = torch.rand(w.shape, generator=generator, dtype=w.dtype, device=w.device)",
     "u = torch.rand(w.shape, generator=generator, dtype=torch.promote_types(w.dtype, torch.float32),\n"
     "                       device=w.device)  # float16 uniforms are too coarse"))}
EXPECT = {"sdpa": "fail"}
