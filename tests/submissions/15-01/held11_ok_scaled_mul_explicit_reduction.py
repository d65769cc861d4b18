"""Correct, unusual: ScaledMul reduces each gradient to its input's shape by hand instead of with
sum_to_size: it sums away the leading dimensions the input lacks, then sums (keepdim) every dimension
where the input has size 1 and the gradient does not."""
from course.grading.class_run.submissions import edited

EXPECT = {"scaled_mul": "pass"}
CELLS = {"scaled_mul_impl": edited(
    "15-01", "scaled_mul_impl",
    ("        x, y = ctx.saved_tensors\n",
     "        x, y = ctx.saved_tensors\n\n        def reduce(g, shape):\n"
     "            lead = g.dim() - len(shape)\n            if lead:\n                g = g.sum(dim=tuple(range(lead)))\n"
     "            dims = tuple(i for i, s in enumerate(shape) if s == 1 and g.shape[i] != 1)\n"
     "            return g.sum(dim=dims, keepdim=True) if dims else g\n"),
    ("            gx = (grad_out * y * ctx.alpha).sum_to_size(x.shape)\n",
     "            gx = reduce(grad_out * y * ctx.alpha, x.shape)\n"),
    ("            gy = (grad_out * x * ctx.alpha).sum_to_size(y.shape)\n",
     "            gy = reduce(grad_out * x * ctx.alpha, y.shape)\n"))}
