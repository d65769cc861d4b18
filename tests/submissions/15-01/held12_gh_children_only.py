"""attach_grad_clipping walks model.children() and hooks their parameters: parameters registered on the
model itself (not inside a child) get no hook and are never clipped."""
from course.grading.class_run.submissions import edited

EXPECT = {"grad_hooks": "fail"}
CELLS = {"grad_clip_impl": edited("15-01", "grad_clip_impl",
                                  ("return [p.register_post_accumulate_grad_hook(clip) for p in model.parameters()"
                                   " if p.requires_grad]",
                                   "return [p.register_post_accumulate_grad_hook(clip) for m in model.children()"
                                   " for p in m.parameters() if p.requires_grad]"))}
