"""Wrong (held-out round 8): when a Python complex meets a floating result, result_dtype keeps the Python
number's own complex type (the default dtype's) unless the float was float64. Under the default float32 this
is right; under the default float64 a float32 tensor (any tier) with 1j gives complex128 where PyTorch gives
complex64. Breaks rule 3: "a floating result meeting a complex lower tier becomes the complex type of the same
precision (float32 gives complex64)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"view_meta": "pass", "windows": "pass", "reshape_view": "pass", "result_dtype": "fail", "stale_nodes": "pass", "op_logger": "pass"}
CELLS = {"result_dtype_impl": edited("00-01", "result_dtype_impl", (
    "            result = complex_of[result] if category(result) == 2 and category(here) == 3 else here\n",
    "            result = (complex_of[result] if category(result) == 2 and category(here) == 3\n"
    "                      and (tier != 0 or result == torch.float64) else here)\n"))}
