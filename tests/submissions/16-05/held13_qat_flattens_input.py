# QATLinear flattens its input to (-1, in_features), thinking of a batch of images: an input of shape
# (B, T, K) gives an output (B * T, M) instead of F.linear's (B, T, M). Breaks "forward(x) ... returns
# F.linear(fake_quantize(x, ...), ...)" for inputs with more than one leading dimension.
from course.grading.class_run.submissions import edited

EXPECT = {"qat": "fail"}
CELLS = {"qat_impl": edited("16-05", "qat_impl", (
    "        if self.training:\n            self.act_observer(x)\n",
    "        x = x.reshape(-1, self.in_features)  # a batch of flat rows\n"
    "        if self.training:\n            self.act_observer(x)\n"))}
