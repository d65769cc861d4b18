"""Round 26: jacobian switches grad mode off for the size probe with torch.set_grad_enabled(False) and puts the
old mode back after the probe and in an `except Exception:` handler before re-raising. An exception that is not
an Exception (KeyboardInterrupt, as when the user interrupts a slow f) skips the handler: grad mode stays off
after jacobian has returned by that exception. The text: "leaving grad mode and every other global setting as
it was, also when `f` raises"; wrong input: an f that raises KeyboardInterrupt (grad mode on before, off after)."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "fail", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"jacobian_impl": edited("16-02", "jacobian_impl", (
    "    with torch.no_grad():\n        n_out = f(x).numel()\n",
    "    was = torch.is_grad_enabled()\n"
    "    torch.set_grad_enabled(False)\n"
    "    try:\n"
    "        n_out = f(x).numel()\n"
    "    except Exception:\n"
    "        torch.set_grad_enabled(was)\n"
    "        raise\n"
    "    torch.set_grad_enabled(was)\n"))}
