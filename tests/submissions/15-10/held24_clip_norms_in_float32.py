"""Wrong (held-out round 24): clip_grad_norm computes every per-tensor norm in float32 ("upcast for fp16
safety", g.float()), so float64 gradients are measured in float32: the returned total is a float32 tensor that
is off by ~1e-8 relative, and float64 gradients of magnitude 1e39 (finite in float64, beyond float32's
3.4e38) give an infinite norm, so clipping multiplies them by 0 instead of max_norm/total. Contradicts
"it is one norm over all parameters ... total = ||(||g_1||_2, ||g_2||_2, ...)||_2" and the reference
torch.nn.utils.clip_grad_norm_, which measures float64 gradients in float64."""
from course.grading.class_run.submissions import edited

EXPECT = {"clipping": "fail"}
CELLS = {"clip_impl": edited(
    "15-10", "clip_impl",
    ("torch.linalg.vector_norm(g.detach(), 2).to(grads[0].device)",
     "torch.linalg.vector_norm(g.detach().float(), 2).to(grads[0].device)"))}
