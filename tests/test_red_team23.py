"""Red team 23 (issue 38, judge side): control flow a probe's TorchFunctionMode could not see into, and a thread born
and gone inside one ``probelib.functions_entered`` call.

Measured at f37ab73 (seed 20261203, the real worker and judge, docs/security.md "twenty-third"): 16-01's output made
by ``torch.empty`` without device= inside a ``torch.cond`` branch (a tensor predicate: the compiled path shows the
mode ``cond`` alone) or inside ``torch.ops.higher_order.cond`` called directly (its branch runs inside the mode's own
handling) passed ``test_launch_on_x_device`` (22/24 of the triton task, the two GPU checks aside);
``clip_grad_norm_`` on a thread made inside the call by ``_thread.start_new_thread`` or ctypes' ``pthread_create``
passed 15-04's ``test_clip_norm_written_by_hand`` (25/25). The in-process tests below fail on that code; the judged
examples are tests/submissions/16-01/rt23_*, 15-04/rt23_* and 00-01/rt23_*."""
import functools
import types


def _recorder():
    from course.judge import worker as hiding
    rec, seen = _made()
    hiding._WATCHER[0] = rec  # (another test file's recorder may have asked since)
    return rec, seen


@functools.cache
def _made():
    """One recorder and one probe mode class for this file (a worker has one: the subclass hook and the thread hooks
    report to the first recorder, or the last that asked)."""
    from course.judge import worker as hiding
    rec = hiding.Recorder()
    rec.watch_spawning()  # as the worker does first
    mod = types.ModuleType("probes_rt23")
    rec.watch_function_modes(mod.__name__)
    exec("from torch.overrides import TorchFunctionMode\n"
         "class Seen(TorchFunctionMode):\n"
         "    def __init__(self):\n"
         "        super().__init__(); self.names = []\n"
         "    def __torch_function__(self, func, types, args=(), kwargs=None):\n"
         "        self.names.append(getattr(func, '__name__', str(func)))\n"
         "        return func(*args, **(kwargs or {}))\n", mod.__dict__)
    rec.instrument(mod.Seen, "function")  # the subclass hook reports to the process's first recorder (one per worker)
    return rec, mod.Seen


def test_cond_branch_is_shown_to_a_probe_function_mode():
    """torch.cond with a tensor predicate under a probe's TorchFunctionMode: the branch taken is shown to the mode as
    plain code (its factories and calls), one with torch functions off inside it is named, and the result is the
    branch's; outside a window cond is PyTorch's as before."""
    import torch
    rec, Seen = _recorder()
    x, t = torch.randn(4, 5), torch.tensor([0, 1, 2, 3])

    def off(a, b):
        with torch._C.DisableTorchFunction():
            return torch.nn.functional.cross_entropy(a, b, reduction="none")

    def plain(a, b):
        return -a.log_softmax(1).gather(1, b[:, None])[:, 0]

    def made(a, b):
        return torch.empty(a.shape[0])

    want = plain(x, t)
    for pred, branch, hidden, names in ((torch.tensor(True), plain, False, {"log_softmax", "gather"}),
                                        (torch.tensor(False), made, False, {"empty"}),
                                        (torch.tensor(True), off, True, set())):
        rec.reset()
        with Seen() as mode:
            out = torch.cond(pred, branch, branch, (x, t))
        err = rec.verdict()
        assert (err is not None and "aten::cross_entropy_loss" in err["message"]) if hidden else err is None, \
            (branch.__name__, err)
        assert names <= set(mode.names), (branch.__name__, mode.names)
        if branch is plain:
            torch.testing.assert_close(out, want)
    rec.reset()
    assert torch.equal(torch.cond(torch.tensor(True), plain, plain, (x, t)), want)  # no window: compiled path only
    assert rec.verdict() is None


def test_control_flow_operator_called_directly_fails():
    """torch.ops.higher_order.cond called directly under a probe's TorchFunctionMode (its branch runs inside the mode's
    handling, out of its sight) fails the call, whatever the branch does; with no mode entered it is left alone."""
    import torch
    rec, Seen = _recorder()
    x = torch.randn(3)
    for branch in (lambda z: z.clone(), lambda z: torch.empty(3)):
        rec.reset()
        with Seen() as mode:
            torch.ops.higher_order.cond(torch.tensor(True), branch, branch, (x,))
        err = rec.verdict()
        assert err is not None and "torch.ops.higher_order.cond" in err["message"], err
        assert "empty" not in mode.names  # what the mode was shown: cond alone
    rec.reset()
    torch.ops.higher_order.cond(torch.tensor(True), lambda z: z.clone(), lambda z: z.clone(), (x,))
    assert rec.verdict() is None


def test_functions_entered_sees_a_thread_born_in_the_call():
    """clip_grad_norm_ on a thread started inside the call through _thread (no profile hook) or ctypes' pthread_create
    (in the sandbox, where the namespace's last pid is read) is named; on a threading.Thread the hook follows it."""
    import _thread
    import queue
    import threading

    import torch

    from course.judge.probelib import functions_entered
    _recorder()
    where = ["torch/nn/utils/clip_grad.py"]

    def clip():
        return torch.nn.utils.clip_grad_norm_([torch.nn.Parameter(torch.ones(3))], 1.0)

    def on_raw_thread():
        done = queue.Queue()
        _thread.start_new_thread(lambda: done.put(clip()), ())
        return done.get()

    def on_a_thread():
        t = threading.Thread(target=clip)
        t.start()
        t.join()

    seen = functions_entered(on_raw_thread, where)[1]
    assert any("made during the call other than through threading" in n for n in seen), seen
    seen = functions_entered(on_a_thread, where)[1]
    assert "clip_grad_norm_" in seen and not any("made during the call" in n for n in seen), seen
    assert functions_entered(lambda: 1, where) == (1, [])
