"""Held-out round 23: trace_mismatches switches autograd off with torch.set_grad_enabled(False) as a statement instead
of the torch.no_grad() context: tracing and every forward call run without autograd, but gradient mode stays off after
the call returns, so the caller's next loss.backward() finds no graph. Exercise 1's text: "Run everything, the trace
included, under torch.no_grad()" (a scope that ends with the function, not a global switch)."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "fail", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "pass"}
CELLS = {"trace_mismatches_impl": edited(
    "15-05", "trace_mismatches_impl",
    ("        with torch.no_grad():\n", "        torch.set_grad_enabled(False)\n        if True:\n"))}
