"""Round 16: trace_mismatches compares with torch.testing.assert_close (rtol 1.3e-6, atol 1e-5 for float32)
instead of torch.allclose's default tolerances (rtol 1e-5, atol 1e-8): logits of about 10 that differ by 3e-6
relative are close for torch.allclose and flagged here ("True where torch.allclose(traced_output, eager_output)
(default tolerances) is False")."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "fail"}
CELLS = {"trace_mismatches_impl": edited("15-05", "trace_mismatches_impl", (
    "            return [not torch.allclose(traced(x), model(x)) for x in inputs]",
    """            flags = []
            for x in inputs:
                try:
                    torch.testing.assert_close(traced(x), model(x))
                    flags.append(False)
                except AssertionError:
                    flags.append(True)
            return flags"""))}
