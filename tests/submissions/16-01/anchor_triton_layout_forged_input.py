"""Known-wrong CUDA kernel for gelu_dropout_op that returns the launcher's row-major result as it is (not laid out
like torch.empty_like(x)) and hides it by changing its input (issue 38, "a student's file is data"): for a
non-contiguous x it re-points x, in place, at a row-major copy of itself, so the input metadata the probe reads
after the call is row-major too. The judge took the expected strides from that report; it now lays x out
itself."""
from course.grading.class_run.submissions import edited

CELLS = {"triton_impl": edited(
    "16-01", "triton_impl",
    ("    return torch.empty_like(x).copy_(launch_gelu_dropout(x, keep, p))",
     "    out = launch_gelu_dropout(x, keep, p)\n"
     "    if not x.is_contiguous():\n"
     "        x.set_(x.contiguous())  # the caller now sees a row-major x, like the output\n"
     "    return out"))}
EXPECT = {"triton": "fail"}
