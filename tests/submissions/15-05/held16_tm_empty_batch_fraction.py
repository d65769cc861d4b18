"""Round 16: trace_mismatches flags an input unless the fraction of close logits is exactly 1; for an input
batch of size 0 that fraction is the mean of nothing (NaN), so an empty batch, on which the trace and the eager
model agree (torch.allclose of two empty tensors is True), is flagged ("for each tensor in the list inputs ...
True where torch.allclose(traced_output, eager_output) is False")."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "fail"}
CELLS = {"trace_mismatches_impl": edited("15-05", "trace_mismatches_impl", (
    "            return [not torch.allclose(traced(x), model(x)) for x in inputs]",
    "            return [torch.isclose(traced(x), model(x)).float().mean().item() != 1.0 for x in inputs]"))}
