"""Wrong (held-out round 30): clip_grad_norm returns early ("nothing to clip") when the total norm is already
at most max_norm, so the factor min(1, max_norm / (total + 1e-6)) of section 1 is never applied there. The
formula scales whenever total + 1e-6 > max_norm, i.e. also when total == max_norm (and slightly below it).
Input: gradients (3e-4, 4e-4) with max_norm=5e-4 (total exactly 5e-4): the factor is 5e-4 / (5e-4 + 1e-6)
= 0.998 (what torch.nn.utils.clip_grad_norm_ does); this answer leaves the gradients unchanged. (NaN and inf
totals still go through the scaling, as in the reference.)"""
from course.grading.class_run.submissions import edited

EXPECT = {"clipping": "fail"}
CELLS = {"clip_impl": edited(
    "15-10", "clip_impl",
    ("        total = torch.linalg.vector_norm(norms, 2)\n",
     "        total = torch.linalg.vector_norm(norms, 2)\n"
     "        if total <= max_norm:\n"
     "            return total  # already within max_norm: nothing to clip\n"))}
