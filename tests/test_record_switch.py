"""The dispatcher's record switched off around hidden work (2026-12-05, issue 38).

The recorder (``course.judge.worker.Recorder``) reads PyTorch's legacy profiler, which is fed by RecordFunction
callbacks; ``torch.autograd._enable_record_function(False)`` turns those off for the calling thread. With the
probe's mode popped and the callbacks off around PyTorch's fused attention, 16-03's ``blocked_attention`` left no
trace in the record, and the memory and one-pass checks passed (2/2 on 3c5764d). The switch is wrapped now: turned
inside a window it fails the call; a window that opens with it off loses its start marker, and a judge's range run
with it off is missing from the record: both fail the call too."""
import pytest

from tests.test_hidden_ops import BLOCKED, HIDE, _grade

SWITCH = {
    # off around the hidden call, on again before the mode is left: nothing of the judge's is lost
    "around_the_call": ("import contextlib\n"
                        "@contextlib.contextmanager\n"
                        "def _hide():\n"
                        "    torch.autograd._enable_record_function(False)\n"
                        "    try:\n"
                        "        with _modes_off():\n"
                        "            yield\n"
                        "    finally:\n"
                        "        torch.autograd._enable_record_function(True)\n"),
    # through torch._C's own name
    "c_name": ("import contextlib\n"
               "@contextlib.contextmanager\n"
               "def _hide():\n"
               "    torch._C._autograd._enable_record_function(False)\n"
               "    try:\n"
               "        with _modes_off():\n"
               "            yield\n"
               "    finally:\n"
               "        torch._C._autograd._enable_record_function(True)\n"),
}


@pytest.mark.parametrize("how", sorted(SWITCH))
def test_attention_with_the_record_switched_off_fails(tmp_path, how):
    """blocked_attention as PyTorch's attention with the mode popped and RecordFunction off: the memory and one-pass
    checks fail and name the switch."""
    hide = HIDE["modes_off"].replace("_hide", "_modes_off") + SWITCH[how]
    checks, events = _grade(tmp_path, "16-03", {"blocked_impl": hide + BLOCKED}, "blocked",
                            "memory_independent_of_length or one_pass")
    assert len(checks) == 2 and all(c.failed for c in checks), [(c.name, c.failed, c.message) for c in checks]
    assert all("RecordFunction callbacks were switched" in c.message for c in checks), [c.message for c in checks]


def test_record_switched_off_in_process():
    """In process: the switch inside a window, a window opened with it off, and a judge's range run with it off
    (as ctypes could, past the wrapper) each fail the call; a plain window does not."""
    import torch
    from torch.utils._python_dispatch import TorchDispatchMode, _disable_current_modes

    from course.judge import worker

    class Probe(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            return func(*args, **(kwargs or {}))

    rec = worker.Recorder()
    rec.watch_spawning()
    rec.instrument(Probe)
    raw = torch.autograd._enable_record_function.__defaults__[0]  # the C function itself, as ctypes would reach it
    x = torch.ones(8)

    def window(before=None, inside=None):
        rec.reset()
        if before:
            before()
        try:
            with Probe():
                if inside:
                    inside()
                x.add(1)
        finally:
            raw(True)
        return rec.verdict()

    assert window() is None
    assert window(inside=lambda: x.mul(2)) is None

    def switched():
        torch.autograd._enable_record_function(False)
        with _disable_current_modes():
            torch.nn.functional.silu(x)
        torch.autograd._enable_record_function(True)

    v = window(inside=switched)
    assert v and "RecordFunction callbacks were switched" in v["message"], v

    v = window(before=lambda: raw(False))
    assert v and "restarted" in v["message"], v

    def raw_off():  # off through the C function itself: the next op's handler range is lost
        raw(False)

    v = window(inside=raw_off)
    assert v and "lost ranges the judge opened" in v["message"], v
