"""Round 28: a single sample (x of shape (in_features,)) is treated as a batch of one, `x = x.unsqueeze(0)`, and
the result keeps the batch dimension: QATLinear(6, 3)(randn(6)) returns shape (1, 3) where F.linear (and
nn.Linear) return (3,). Breaks "forward(x) ... returns F.linear(fake_quantize(x, ...), fake_quantize(weight,
...), bias)" on a 1-D x; on batched inputs it is exact."""
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "pass", "quant": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "fail"}
CELLS = {"qat_impl": edited("16-05", "qat_impl", (
    "        if self.training:\n",
    "        if x.dim() == 1:\n"
    "            x = x.unsqueeze(0)  # a single sample is a batch of one\n"
    "        if self.training:\n"))}
