"""attach_grad_clipping's hooks close over the loop variable p (late binding): every hook clips the last
parameter's gradient, and the others are never clipped."""
from course.grading.class_run.submissions import edited

EXPECT = {"grad_hooks": "fail"}
CELLS = {"grad_clip_impl": edited("15-01", "grad_clip_impl",
                                  ("return [p.register_post_accumulate_grad_hook(clip) for p in model.parameters()"
                                   " if p.requires_grad]",
                                   "handles = []\n"
                                   "    for p in model.parameters():\n"
                                   "        if p.requires_grad:\n"
                                   "            handles.append(p.register_post_accumulate_grad_hook(lambda _t: clip(p)))\n"
                                   "    return handles"))}
