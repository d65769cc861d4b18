"""Known-wrong scaled_dot_product_attention (round 25): dropout is applied only while autograd records
(`dropout_p > 0 and torch.is_grad_enabled()`), as if no_grad meant evaluation. The text says "With
dropout_p > 0, after the softmax draw u = torch.rand(...) once per call ... keep the weights where
u >= dropout_p" with no exception for grad mode: under torch.no_grad() (or inference_mode) with
dropout_p = 0.5 the result is the undropped attention and the generator is not advanced."""
from course.grading.class_run.submissions import edited

CELLS = {"sdpa_impl": edited(
    "16-03", "sdpa_impl",
    ("    if dropout_p > 0:\n", "    if dropout_p > 0 and torch.is_grad_enabled():\n"))}
EXPECT = {"sdpa": "fail"}
