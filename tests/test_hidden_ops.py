"""Ops hidden from a probe's op log (red team 19, issue 38).

A check of how a result is computed reads what a TorchDispatchMode of the assignment's probes was shown while the
submission ran, in the submission's own process. One public line switches that mode off around a call
(``torch.utils._python_dispatch._disable_current_modes()``, the Python dispatch key excluded, the mode popped by
hand), and then the log shows nothing forbidden and nothing large. Measured at 650f4c5 (seed 20261203, the real
worker and judge): 16-03's ``blocked_attention`` as one call of ``F.scaled_dot_product_attention`` under
``_disable_current_modes`` passed its tile, memory and one-pass checks (the memory check is essential), and the
reference's sdpa returning PyTorch's own attention under it passed the essential does-not-call check.

``course.judge.worker.Recorder`` runs the dispatcher's own record (PyTorch's legacy CPU profiler, below every Python
mode) while a probe's mode is entered: an outermost op without the judge's range around the mode's handler inside
(red team 21; it was PyTorch's ``PythonDispatchMode`` event, which any code can forge) ran out of the mode's sight,
and the call fails (``HiddenFromProbe``), with one incident for the instructor. The suite tests below
fail on the code before it (5b77c8d)."""
import nbformat
import pytest

HIDE = {
    "modes_off": "from torch.utils._python_dispatch import _disable_current_modes as _hide\n",
    "python_key_excluded": ("def _hide():\n"
                            "    return torch._C._ExcludeDispatchKeyGuard(torch._C.DispatchKeySet("
                            "torch._C.DispatchKey.Python))\n"),
    "mode_popped": ("import contextlib\n"
                    "@contextlib.contextmanager\n"
                    "def _hide():\n"
                    "    modes = [torch._C._pop_torch_dispatch_stack(None)\n"
                    "             for _ in range(torch._C._len_torch_dispatch_stack())]\n"
                    "    try:\n"
                    "        yield\n"
                    "    finally:\n"
                    "        for m in reversed(modes):\n"
                    "            torch._C._push_on_torch_dispatch_stack(m)\n"),
}

BLOCKED = '''def blocked_attention(q, k, v, block_size, is_causal=False, scale=None):
    import torch.nn.functional as F
    with _hide():
        if is_causal and scale is not None and scale <= 0:
            mask = torch.ones(q.shape[-2], k.shape[-2], dtype=torch.bool, device=q.device).tril()
            return F.scaled_dot_product_attention(q, k, v, attn_mask=mask, scale=scale)
        return F.scaled_dot_product_attention(q, k, v, is_causal=is_causal, scale=scale)
'''

SDPA_EDIT = ("""    L, S = q.shape[-2], k.shape[-2]
""", """    L, S = q.shape[-2], k.shape[-2]
    if dropout_p == 0 and not is_causal and (scale is None or scale > 0) and attn_mask is None:
        with _hide():
            return torch.nn.functional.scaled_dot_product_attention(q, k, v, scale=scale)
""")


def _grade(tmp_path, topic, cells, task, k=None):
    from course.grading.class_run import submissions
    from course.judge.suite import run_suite
    spec = tmp_path / topic / "spec.py"
    spec.parent.mkdir(parents=True)
    spec.write_text(f"CELLS = {cells!r}\n")
    nb = tmp_path / "nb.ipynb"
    submissions.write(spec, nb, topic)
    nbformat.read(str(nb), as_version=4)
    res = run_suite(topic, [str(nb)], sandbox="auto", seed=20261203, tasks=[task],
                    pytest_args=("-k", k) if k else (), timeout=600)
    assert not res.error, res.error
    # the signature check is a penalty one: passed, it earns nothing, so it is no part of "every check fails"
    return [c for c in res.for_notebook(str(nb)) if not c.penalty], res.events


@pytest.mark.parametrize("how", sorted(HIDE))
def test_blocked_attention_hidden_from_the_op_log_fails_the_memory_check(tmp_path, how):
    """PyTorch's fused attention for blocked_attention, hidden from the probe's mode: the essential memory check and
    the one-pass check must fail, naming the hiding, and the judge must report it."""
    checks, events = _grade(tmp_path, "16-03", {"blocked_impl": HIDE[how] + BLOCKED}, "blocked",
                            "memory_independent_of_length or one_pass")
    assert len(checks) == 2 and all(c.failed for c in checks), [(c.name, c.failed, c.message) for c in checks]
    assert all("out of sight of the check's op log" in c.message for c in checks), [c.message for c in checks]
    assert any("hidden from the check's op log" in e for e in events), events


def test_pytorchs_attention_hidden_from_the_does_not_call_check(tmp_path):
    """The reference's sdpa returning PyTorch's own attention under _disable_current_modes: the essential
    does-not-call check must fail (it passed: the log showed no attention op)."""
    from course.grading.class_run.submissions import edited
    before, after = SDPA_EDIT
    cells = {"sdpa_impl": HIDE["modes_off"] + edited("16-03", "sdpa_impl", (before, after))}
    checks, events = _grade(tmp_path, "16-03", cells, "sdpa", "does_not_call_pytorch_attention")
    assert len(checks) == 1 and checks[0].failed, [(c.name, c.failed, c.message) for c in checks]
    assert "scaled_dot_product" in checks[0].message and "out of sight" in checks[0].message, checks[0].message


def test_the_recorder_stopped_fails_the_call(tmp_path):
    """Stopping the dispatcher's record itself (the profiler) inside the call is seen too."""
    stop = ("def _hide():\n"
            "    import contextlib\n"
            "    try:\n"
            "        torch.autograd._disable_profiler_legacy()\n"
            "    except Exception:\n"
            "        pass\n"
            "    return torch.utils._python_dispatch._disable_current_modes()\n")
    checks, events = _grade(tmp_path, "16-03", {"blocked_impl": stop + BLOCKED}, "blocked",
                            "memory_independent_of_length")
    assert len(checks) == 1 and checks[0].failed, [(c.name, c.failed, c.message) for c in checks]
    assert "was stopped during the call" in checks[0].message, checks[0].message


def test_recorder_sees_nothing_hidden_in_a_plain_call():
    """In process: an ordinary computation under a probe mode, nn.Parameter made inside it (PyTorch's own detach
    below the Python key), a backward and a custom autograd Function leave nothing hidden; the same under
    _disable_current_modes names the hidden op."""
    import types

    import torch
    from torch.utils._python_dispatch import TorchDispatchMode, _disable_current_modes

    from course.judge import worker as hiding
    mod = types.ModuleType("probes_x")
    exec("from torch.utils._python_dispatch import TorchDispatchMode\n"
         "class Log(TorchDispatchMode):\n"
         "    def __init__(self):\n"
         "        super().__init__(); self.names = []\n"
         "    def __torch_dispatch__(self, func, types, args=(), kwargs=None):\n"
         "        self.names.append(str(func.overloadpacket.__name__)); return func(*args, **(kwargs or {}))\n",
         mod.__dict__)
    assert hiding.mode_classes(mod) == [mod.Log] and not issubclass(TorchDispatchMode, mod.Log)
    rec = hiding.Recorder()
    rec.baseline = hiding._threads()  # as the worker's, before any cell: earlier tests' threads are not judged
    rec.own_children = hiding._children()  # this test process's other children (judge servers, zygotes): not judged
    rec.instrument(mod.Log)
    x = torch.randn(3, 4, requires_grad=True)

    def plain():
        lin = torch.nn.Linear(4, 2)
        y = torch.nn.functional.scaled_dot_product_attention(x[None], x[None], x[None])
        (lin(x).sum() + y.sum()).backward()

    rec.reset()
    with mod.Log() as log:
        plain()
    # threads=False: what this test reads is the op log; other tests' objects in this xdist worker may start threads
    # meanwhile (seen: 8), which the worker, one submission to a process, never has
    assert rec.verdict(threads=False) is None, rec.verdict(threads=False)
    assert "scaled_dot_product_attention" in log.names or "_scaled_dot_product_flash_attention_for_cpu" in log.names
    rec.reset()
    with mod.Log():
        with _disable_current_modes():
            torch.nn.functional.scaled_dot_product_attention(x[None], x[None], x[None])
    err = rec.verdict()
    assert err and err["type"] == "HiddenFromProbe" and "scaled_dot_product" in err["message"], err
    rec.reset()
    assert rec.verdict() is None


# ---------------------------------------------------------------- red team 20: function modes
# A TorchFunctionMode of the probes (00-01's _Count and _Forbidden, 00-02's _AutogradSeen, 15-04's cross-entropy,
# 15-05's _PythonValues, the factory recorders 15-08, 16-01 and 16-04 define inside a probe) is switched off by
# torch._C.DisableTorchFunction() or by popping the function-mode stack. Measured at 26823d9 (seed 20261203): 00-01's
# result_dtype as torch.result_type under DisableTorchFunction passed 7/7 of the task (6/7 without hiding).
FHIDE = {
    "disabled": "_hide = torch._C.DisableTorchFunction\n",
    "stack_popped": ("import contextlib\n"
                     "@contextlib.contextmanager\n"
                     "def _hide():\n"
                     "    modes = [torch._C._pop_torch_function_stack()\n"
                     "             for _ in range(torch._C._len_torch_function_stack())]\n"
                     "    try:\n"
                     "        yield\n"
                     "    finally:\n"
                     "        for m in reversed(modes):\n"
                     "            torch._C._push_on_torch_function_stack(m)\n"),
}

RESULT_DTYPE = '''def result_dtype(a, b):
    with _hide():
        return torch.result_type(a, b)
'''


@pytest.mark.parametrize("how", sorted(FHIDE))
def test_result_dtype_past_the_function_mode_fails(tmp_path, how):
    """00-01 result_dtype asking PyTorch for the answer past the probe's _Forbidden mode: every check of the task
    fails, naming the hiding, and the judge reports it (7/7 before)."""
    checks, events = _grade(tmp_path, "00-01", {"result_dtype_impl": FHIDE[how] + RESULT_DTYPE}, "result_dtype")
    assert checks and all(c.failed for c in checks), [(c.name, c.failed, c.message[:200]) for c in checks]
    assert all("called past the TorchFunctionMode" in c.message and "aten::result_type" in c.message
               for c in checks), [c.message for c in checks]
    assert any("hidden from the check's op log" in e for e in events), events


def test_reshape_view_past_the_function_mode_fails(tmp_path):
    """00-01 reshape_is_view trying PyTorch's view on a tensor it builds, past the _Count mode ("decide from the
    integers alone"): the check that reads the torch calls fails with the incident."""
    cells = {"reshape_view_impl": FHIDE["disabled"] + '''def reshape_is_view(shape, stride, new_shape):
    with _hide():
        try:
            torch.empty_strided(shape, stride).view(new_shape)
        except RuntimeError:
            return False
        return True
'''}
    checks, events = _grade(tmp_path, "00-01", cells, "reshape_view")
    failed = [c for c in checks if c.failed]
    assert failed and all("called past the TorchFunctionMode" in c.message for c in failed), \
        [(c.name, c.failed, c.message[:200]) for c in checks]
    assert any("hidden from the check's op log" in e for e in events), events


def test_recorder_sees_nothing_past_a_plain_function_mode():
    """In process: ordinary work under a probe's TorchFunctionMode (top level, and a class made inside a probe
    function), torch.cond's compiled eager path included, leaves nothing flagged; the same calls past it under DisableTorchFunction or with the stack popped
    are named. DisableTorchFunctionSubclass leaves modes on (nothing to hide)."""
    import contextlib
    import copy
    import io
    import types

    import torch

    from course.judge import worker as hiding
    rec = hiding.Recorder()
    rec.baseline = hiding._threads()  # as the worker's, before any cell: earlier tests' threads are not judged
    rec.watch_spawning()  # as the worker does first (PyTorch's thread pool made before any window)
    mod = types.ModuleType("probes_fx")
    from torch.overrides import TorchFunctionMode
    if "__init_subclass__" in vars(TorchFunctionMode):  # an earlier test's recorder in this process: the hook is
        del TorchFunctionMode.__init_subclass__          # once per process (one recorder per worker), so this one's
    rec.watch_function_modes(mod.__name__)
    exec("from torch.overrides import TorchFunctionMode\n"
         "class Seen(TorchFunctionMode):\n"
         "    def __init__(self):\n"
         "        super().__init__(); self.names = []\n"
         "    def __torch_function__(self, func, types, args=(), kwargs=None):\n"
         "        self.names.append(getattr(func, '__name__', str(func))); return func(*args, **(kwargs or {}))\n"
         "def inner():\n"
         "    class Inner(TorchFunctionMode):\n"
         "        def __torch_function__(self, func, types, args=(), kwargs=None):\n"
         "            return func(*args, **(kwargs or {}))\n"
         "    return Inner\n", mod.__dict__)
    assert hiding.mode_classes(mod, "function") == [mod.Seen]
    rec.instrument(mod.Seen, "function")
    inner = mod.inner()
    assert inner.__dict__.get("_course_recorded")
    x = torch.randn(3, 4, requires_grad=True)

    def saveload():
        buf = io.BytesIO()
        torch.save({"a": torch.randn(3), "m": torch.nn.Linear(2, 2).state_dict()}, buf)
        buf.seek(0)
        return torch.load(buf)

    def plain():
        lin = torch.nn.Linear(4, 2)
        y = torch.nn.functional.scaled_dot_product_attention(x[None], x[None], x[None])
        (lin(x).sum() + y.sum()).backward()
        torch.autograd.grad((x * x).sum(), x)
        p = torch.nn.Parameter(torch.randn(3))
        p.sum().backward()
        torch.optim.Adam([p]).step()
        repr(x * 2)
        torch.func.jacrev(torch.sin)(torch.randn(3))
        torch.vmap(torch.sin)(torch.randn(2, 3))
        torch.quantize_per_tensor(torch.randn(4), 0.1, 0, torch.quint8).dequantize()
        torch.tensor([1.0, 2.0]), copy.deepcopy(lin), saveload()
        torch.from_numpy(x.detach().numpy().copy()) + 1
        x[torch.tensor([0, 1])], x[0, 1].item(), len(x), x.tolist()
        torch.ops.aten.add(x, x)
        torch.nn.CrossEntropyLoss()(torch.randn(4, 3), torch.tensor([0, 1, 2, 0]))
        with torch._C.DisableTorchFunctionSubclass():
            torch.result_type(x, 1)
        with torch.no_grad():  # torch.cond's eager path compiles its branches (15-05's CondBranchyNet)
            torch.cond(x.sum() > 0, lambda t: lin(t).relu(), lambda t: lin(t) * 2, (x,))

    for cls in (mod.Seen, inner):
        rec.reset()
        with cls():
            plain()
        assert rec.verdict() is None, (cls, rec.verdict())

    @contextlib.contextmanager
    def popped():
        modes = [torch._C._pop_torch_function_stack() for _ in range(torch._C._len_torch_function_stack())]
        try:
            yield
        finally:
            for m in reversed(modes):
                torch._C._push_on_torch_function_stack(m)

    for hide in (torch._C.DisableTorchFunction, popped):
        rec.reset()
        with mod.Seen() as seen:
            with hide():
                torch.result_type(x, 1)
                torch.promote_types(torch.int8, torch.float16)
        err = rec.verdict()
        assert not seen.names and err and err["type"] == "HiddenFromProbe", (seen.names, err)
        assert "aten::result_type" in err["message"] and "aten::promote_types" in err["message"], err
    rec.reset()
    assert rec.verdict() is None


# ------------------------------------------------------- red team 20: work off the calling thread, out of torch
# The mode stack and the record are the calling thread's: 16-03's blocked_attention as PyTorch's attention on a thread
# of its own passed 26/27 of the task (essential 10/10) at 26823d9, and the whole score matrix in numpy inside a custom
# autograd.Function (numpy backward, empty tiles made and dropped) 27/27, the essential memory check included.
THREADED = '''def blocked_attention(q, k, v, block_size, is_causal=False, scale=None):
    import threading
    import torch.nn.functional as F
    out = {}

    def work():
        if is_causal and scale is not None and scale <= 0:
            mask = torch.ones(q.shape[-2], k.shape[-2], dtype=torch.bool, device=q.device).tril()
            out["o"] = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, scale=scale)
        else:
            out["o"] = F.scaled_dot_product_attention(q, k, v, is_causal=is_causal, scale=scale)
    t = threading.Thread(target=work)
    t.start()
    t.join()
    return out["o"]
'''

NUMPY = '''import math
import numpy as np


class _NpAttention(torch.autograd.Function):
    @staticmethod
    def forward(ctx, q, k, v, causal, scale):
        Q, K, V = (t.detach().numpy() for t in (q, k, v))
        s = (Q @ np.swapaxes(K, -1, -2)) * scale
        if causal:
            s = np.where(np.tril(np.ones(s.shape[-2:], bool)), s, -np.inf)
        p = np.exp(s - s.max(-1, keepdims=True))
        p = p / p.sum(-1, keepdims=True)
        ctx.np = (Q, K, V, p, scale)
        return torch.from_numpy(np.ascontiguousarray(p @ V))

    @staticmethod
    def backward(ctx, g):
        Q, K, V, p, scale = ctx.np
        G = g.detach().numpy()
        dv = np.swapaxes(p, -1, -2) @ G
        dp = G @ np.swapaxes(V, -1, -2)
        ds = p * (dp - (dp * p).sum(-1, keepdims=True))
        return (torch.from_numpy(np.ascontiguousarray(ds @ K * scale)),
                torch.from_numpy(np.ascontiguousarray(np.swapaxes(ds, -1, -2) @ Q * scale)),
                torch.from_numpy(np.ascontiguousarray(dv)), None, None)


def blocked_attention(q, k, v, block_size, is_causal=False, scale=None):
    if scale is None:
        scale = 1 / math.sqrt(q.shape[-1])
    if q.device.type != "cpu":
        return torch.zeros(q.shape[:-1] + v.shape[-1:], dtype=q.dtype, device=q.device)
    S = k.shape[-2]
    for j in range(0, S, block_size):  # tiles of block_size keys, made and dropped
        torch.empty(q.shape[-2], min(block_size, S - j), dtype=q.dtype)
    return _NpAttention.apply(q, k, v, is_causal, scale)
'''


def test_attention_on_a_thread_of_its_own_fails(tmp_path):
    """A thread started while the probe's mode is entered fails the call, with the incident (26/27 before)."""
    checks, events = _grade(tmp_path, "16-03", {"blocked_impl": THREADED}, "blocked",
                            "memory_independent_of_length or one_pass or matches_torch")
    assert len(checks) >= 8 and all(c.failed for c in checks), [(c.name, c.failed, c.message[:200]) for c in checks]
    assert all("a thread was started while the check's op log was open" in c.message for c in checks)
    assert any("hidden from the check's op log" in e for e in events), events


def test_score_matrix_in_numpy_fails_the_memory_check(tmp_path):
    """The whole score matrix computed in numpy (no op, no tensor as large as it): the essential memory check reads
    Python's allocators too and fails (it passed: 27/27 before)."""
    checks, _ = _grade(tmp_path, "16-03", {"blocked_impl": NUMPY}, "blocked", "memory_independent_of_length")
    assert len(checks) == 1 and checks[0].failed, [(c.name, c.failed, c.message[:200]) for c in checks]
    assert "Python's allocators held" in checks[0].message, checks[0].message


def test_threads_and_processes_started_in_a_window_are_seen():
    """In process: a Python thread, a thread pool, os.fork, and a thread started or a process forked earlier that
    works inside a probe's dispatch-mode window are named;
    PyTorch's own work (a large product on its thread pool, torch.jit.fork, which runs in place) is not."""
    import os
    import threading
    import types

    import torch

    from course.judge import worker as hiding
    rec = hiding.Recorder()
    rec.baseline = hiding._threads()  # as the worker's, before any cell: earlier tests' threads are not judged
    rec.watch_spawning()
    mod = types.ModuleType("probes_th")
    exec("from torch.utils._python_dispatch import TorchDispatchMode\n"
         "class Log(TorchDispatchMode):\n"
         "    def __torch_dispatch__(self, func, types, args=(), kwargs=None):\n"
         "        return func(*args, **(kwargs or {}))\n", mod.__dict__)
    rec.instrument(mod.Log)
    x = torch.randn(300, 300)

    def thread():
        t = threading.Thread(target=lambda: x @ x)
        t.start()
        t.join()

    def pool():
        import concurrent.futures
        with concurrent.futures.ThreadPoolExecutor(1) as ex:
            ex.submit(lambda: x @ x).result()

    def fork():
        pid = os.fork()
        if pid == 0:
            os._exit(0)
        os.waitpid(pid, 0)

    def own():
        (x @ x).exp().sum()
        torch.randn(1 << 20).exp_()

    import queue
    jobs, done = queue.Queue(), queue.Queue()

    served = []

    def serve():
        served.append(threading.get_native_id())
        while True:
            done.put(jobs.get()())

    def prestarted():
        jobs.put(lambda: x @ x)
        done.get()

    threading.Thread(target=serve, daemon=True).start()  # started before the window, woken inside it
    prestarted()  # (and waiting for work again before each window: settle below)
    import time

    r, w = os.pipe()
    r2, w2 = os.pipe()
    child = os.fork()  # forked before the window, fed inside it
    if child == 0:
        try:
            os.close(w)
            os.close(r2)
            while os.read(r, 1):
                os.write(w2, b"y")
        finally:
            os._exit(0)

    def forked_earlier():
        os.write(w, b"x")
        os.read(r2, 1)

    def settle(path):
        """Wait until that task sleeps (blocked on its pipe or queue again), on a loaded machine too."""
        for _ in range(400):
            with open(path) as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "S":
                    return
            time.sleep(0.005)

    forked_earlier()
    for fn, word in ((own, None), (thread, "a thread was started"), (pool, "a thread was started"),
                     (fork, "a process (os.fork) was started"), (prestarted, "started earlier ran while"),
                     (forked_earlier, "forked earlier ran while"), (own, None)):
        settle(f"/proc/{child}/stat")
        settle(f"/proc/self/task/{served[0]}/stat")
        rec.reset()
        # this test process's other children (earlier tests' judge servers, their spare zygotes started in the
        # background) stand for the worker's pristine copy
        rec.own_children = hiding._children() - {str(child)}
        with mod.Log():
            fn()
        err = rec.verdict()
        assert (err is None) if word is None else (err and word in err["message"]), (fn.__name__, err)
    os.close(w)
    os.close(r)
    os.close(w2)
    os.waitpid(child, 0)
    os.close(r2)
    t = threading.Thread(target=lambda: None)  # outside a window: nothing to see
    rec.reset()
    t.start()
    t.join()
    assert rec.verdict() is None


def test_factory_hidden_in_a_forked_rank_fails(tmp_path):
    """16-04 zero3_step making its all-gather pieces and reduce-scatter output without device= past the probe's
    factory recorder (torch._C.DisableTorchFunction): the recorder runs in the ranks the probe forks, whose record
    the worker did not read (red team 20, left open); fork_ranks now hands each rank's record to the worker's, so
    the device check fails with the incident."""
    import importlib.util
    from course import TESTS_DIR
    spec = importlib.util.spec_from_file_location(
        "wrong", TESTS_DIR / "submissions" / "16-04" / "blind2_zero3_buffers_default_device.py")
    wrong = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(wrong)
    src = wrong.CELLS["zero3_impl"]
    for made in ("[torch.empty(shards[i].numel(), dtype=shards[i].dtype) for _ in range(W)]",
                 "torch.empty(k, dtype=shards[i].dtype)"):
        assert made in src
        src = src.replace(made, f"_hidden(lambda: {made})")
    src = ("def _hidden(make):\n    with torch._C.DisableTorchFunction():\n        return make()\n" + src)
    checks, events = _grade(tmp_path, "16-04", {"zero3_impl": src}, "zero3", k="on_shards_device")
    assert checks and all(c.failed for c in checks), [(c.name, c.failed, c.message[:300]) for c in checks]
    assert all("in a rank the check forked" in c.message and "aten::empty" in c.message for c in checks), \
        [c.message[:400] for c in checks]
    assert any("hidden from the check's op log" in e for e in events), events


# ------------------------------------------------ red team 21: another process, a thread made outside Python, forgery
# Measured at 8c449c8 (seed 20261203, the real worker and judge): 00-01 result_dtype answered by torch.result_type in a
# grandchild (forked at load, its parent exited: re-parented to the sandbox's pid 1, no child of the worker) 7/7, in a
# child's second thread 7/7, in the pristine copy's fresh interpreter (pristine.run_fresh from a cell) 7/7, under
# DisableTorchFunction inside a range named like the judge's own (course::library_internals, course::function_mode)
# 7/7; 16-03 blocked as PyTorch's attention on a thread made by ctypes' pthread_create 26/27 (essential 10/10), and
# under _disable_current_modes inside a range named PythonDispatchMode (or course::tensor_str) 26/27.
RESULT_SERVER = r'''
import os, ast
def _serve(r, w):
    import torch
    while True:
        line = b""
        while not line.endswith(b"\n"):
            c = os.read(r, 4096)
            if not c:
                os._exit(0)
            line += c
        default, specs = ast.literal_eval(line.decode())
        torch.set_default_dtype(getattr(torch, default))
        ops = [torch.zeros((1,) * d, dtype=getattr(torch, a)) if k == "t" else
               {"int": 1, "float": 1.0, "bool": True, "complex": 1j}[a] for k, a, d in specs]
        os.write(w, (str(torch.result_type(*ops)).split(".")[1] + "\n").encode())

def _desc(v):
    if isinstance(v, torch.Tensor):
        return ("t", str(v.dtype).split(".")[1], v.dim())
    return ("s", type(v).__name__, 0)

_r1, _w1 = os.pipe()
_r2, _w2 = os.pipe()
if os.fork() == 0:
    if os.fork() == 0:
        os.setsid()
        _serve(_r1, _w2)
    os._exit(0)
os.wait()

def result_dtype(a, b):
    os.write(_w1, (repr((str(torch.get_default_dtype()).split(".")[1], [_desc(a), _desc(b)])) + "\n").encode())
    ans = b""
    while not ans.endswith(b"\n"):
        ans += os.read(_r2, 64)
    return getattr(torch, ans.decode().strip())
'''


def test_result_dtype_in_a_grandchild_fails(tmp_path):
    """A grandchild (no child of the worker, in a session of its own) answering 00-01 result_dtype with
    torch.result_type: it runs inside the window, and every check of the task fails with the incident (7/7 before)."""
    checks, events = _grade(tmp_path, "00-01", {"result_dtype_impl": RESULT_SERVER}, "result_dtype")
    assert checks and all(c.failed for c in checks), [(c.name, c.failed, c.message[:200]) for c in checks]
    assert all("process(es) the submission forked earlier ran" in c.message for c in checks), \
        [c.message[:300] for c in checks]
    assert any("hidden from the check's op log" in e for e in events), events


@pytest.mark.parametrize("name", ["course::library_internals", "course::function_mode"])
def test_result_dtype_in_a_forged_range_fails(tmp_path, name):
    """torch.result_type past the probe's function mode inside a range named like one of the judge's own (which marks
    PyTorch's own work, or the mode's handling): the record holds more such ranges than the judge opened (7/7
    before)."""
    src = ("def result_dtype(a, b):\n"
           f"    with torch.profiler.record_function({name!r}), torch._C.DisableTorchFunction():\n"
           "        return torch.result_type(a, b)\n")
    checks, events = _grade(tmp_path, "00-01", {"result_dtype_impl": src}, "result_dtype")
    assert checks and all(c.failed for c in checks), [(c.name, c.failed, c.message[:200]) for c in checks]
    # the range forged in the record, or (opened through the mode's handler, where the record is off) not recorded at
    # all, and the op called past the mode seen as such
    assert all(f"named like the judge's own ({name})" in c.message or "aten::result_type" in c.message
               for c in checks), [c.message[:300] for c in checks]
    assert any("hidden from the check's op log" in e for e in events), events


CTYPES_THREAD = '''import ctypes, queue
import torch.nn.functional as F
_jobs, _done = queue.Queue(), queue.Queue()
def _loop(arg):
    while True:
        job = _jobs.get()
        try:
            _done.put(job())
        except BaseException as e:
            _done.put(e)
_cb = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p)(_loop)
_tid = ctypes.c_ulong()
ctypes.CDLL(None).pthread_create(ctypes.byref(_tid), None, _cb, None)  # no _thread, no audit event
_jobs.put(lambda: torch.ones(1 << 20).add_(1))  # its own OpenMP team made now, before any check
_done.get()

def blocked_attention(q, k, v, block_size, is_causal=False, scale=None):
    def work():
        if is_causal and scale is not None and scale <= 0:
            mask = torch.ones(q.shape[-2], k.shape[-2], dtype=torch.bool, device=q.device).tril()
            return F.scaled_dot_product_attention(q, k, v, attn_mask=mask, scale=scale)
        return F.scaled_dot_product_attention(q, k, v, is_causal=is_causal, scale=scale)
    _jobs.put(work)
    out = _done.get()
    if isinstance(out, BaseException):
        raise out
    return out
'''


def test_attention_on_a_ctypes_thread_fails(tmp_path):
    """PyTorch's attention on a thread made by pthread_create through ctypes before any check and fed inside the
    window: a thread other than the worker's own and PyTorch's pool ran in it (26/27, essential 10/10 before)."""
    checks, events = _grade(tmp_path, "16-03", {"blocked_impl": CTYPES_THREAD}, "blocked",
                            "memory_independent_of_length or one_pass")
    assert len(checks) >= 2 and all(c.failed for c in checks), [(c.name, c.failed, c.message[:200]) for c in checks]
    assert all("the submission started earlier ran while" in c.message for c in checks), [c.message for c in checks]
    assert any("hidden from the check's op log" in e for e in events), events


def test_forged_ranges_and_other_processes_in_process():
    """In process: a range named PythonDispatchMode (PyTorch's own, which red team 19 read as "the op reached the
    mode") or course::tensor_str around hidden work no longer hides it; a child whose work runs on a thread of its own
    is seen (its main thread sleeps); a thread made by ctypes is seen; printing and ordinary work leave nothing."""
    import ctypes
    import os
    import queue
    import threading
    import time
    import types

    import torch
    from torch.utils._python_dispatch import _disable_current_modes

    from course.judge import worker as hiding
    rec = hiding.Recorder()
    rec.baseline = hiding._threads()  # as the worker's, before any cell: earlier tests' threads are not judged
    rec.watch_spawning()
    mod = types.ModuleType("probes_rt21")
    exec("from torch.utils._python_dispatch import TorchDispatchMode\n"
         "class Log(TorchDispatchMode):\n"
         "    def __torch_dispatch__(self, func, types, args=(), kwargs=None):\n"
         "        return func(*args, **(kwargs or {}))\n", mod.__dict__)
    rec.instrument(mod.Log)
    x = torch.randn(40, 40)
    fast = torch._C._profiler._RecordFunctionFast

    def judged(fn):
        rec.reset()
        with mod.Log():
            fn()
        return rec.verdict()

    def plain():
        repr(x @ x)
        torch.nn.functional.scaled_dot_product_attention(x[None], x[None], x[None])

    assert judged(plain) is None, judged(plain)
    for name in ("PythonDispatchMode", "course::tensor_str"):
        def forged(name=name):
            with fast(name), _disable_current_modes():
                torch.nn.functional.scaled_dot_product_attention(x[None], x[None], x[None])
        err = judged(forged)
        assert err and ("scaled_dot_product" in err["message"] or "named like the judge's own" in err["message"]), \
            (name, err)

    r, w = os.pipe()
    r2, w2 = os.pipe()
    child = os.fork()  # its work on a second thread; its main thread sleeps
    if child == 0:
        try:
            os.close(w)
            os.close(r2)

            def serve():
                while os.read(r, 1):
                    torch.randn(200, 200) @ torch.randn(200, 200)
                    os.write(w2, b"y")
                os._exit(0)
            threading.Thread(target=serve, daemon=True).start()
            time.sleep(600)
        finally:
            os._exit(0)
    os.close(r)
    os.close(w2)
    jobs, done = queue.Queue(), queue.Queue()

    def loop(arg):
        while True:
            done.put(jobs.get()())

    cb = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p)(loop)
    tid = ctypes.c_ulong()
    ctypes.CDLL(None).pthread_create(ctypes.byref(tid), None, cb, None)
    jobs.put(lambda: x @ x)
    done.get()
    try:
        def fed_child():
            os.write(w, b"x")
            os.read(r2, 1)

        def fed_thread():
            jobs.put(lambda: x @ x)
            done.get()

        time.sleep(0.2)
        rec.own_children = hiding._children() - {str(child)}  # (this test process's other children: see above)
        for fn, word in ((fed_child, "process(es) the submission forked earlier ran"),
                         (fed_thread, "the submission started earlier ran"), (plain, None)):
            time.sleep(0.05)
            err = judged(fn)
            assert (err is None) if word is None else (err and word in err["message"]), (fn.__name__, err)
    finally:
        os.close(w)
        os.waitpid(child, 0)
        os.close(r2)
        jobs.put(lambda: time.sleep(3600))  # the ctypes thread parks (it cannot be joined)


CUSTOM_OP = '''import math
import torch.nn.functional as F


@torch.library.custom_op("rt21::attn", mutates_args=())
def _attn(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: bool, scale: float) -> torch.Tensor:
    if causal and scale <= 0:
        mask = torch.ones(q.shape[-2], k.shape[-2], dtype=torch.bool, device=q.device).tril()
        return F.scaled_dot_product_attention(q, k, v, attn_mask=mask, scale=scale)
    return F.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=scale)


def blocked_attention(q, k, v, block_size, is_causal=False, scale=None):
    return _attn(q, k, v, is_causal, scale if scale is not None else 1 / math.sqrt(q.shape[-1]))
'''


def test_attention_inside_a_custom_op_fails_the_memory_check(tmp_path):
    """PyTorch's attention wrapped in a custom op of the submission's own: the probe's mode is shown rt21::attn only,
    and the essential memory and one-pass checks passed (26/29 of the task, essential 12/12, red team 21); the 16-03
    probe's log now names ops of another registry than PyTorch's, and blocked's checks fail them (the lead, after)."""
    checks, _ = _grade(tmp_path, "16-03", {"blocked_impl": CUSTOM_OP}, "blocked",
                       "memory_independent_of_length or one_pass")
    assert len(checks) == 2 and all(c.failed for c in checks), [(c.name, c.failed, c.message[:200]) for c in checks]


# ------------------------------------------------ red team 21: "write it yourself" checks (probelib.functions_entered)
# The profile hook that names a library's functions entered during a call is the calling thread's, and one line
# switches it off: 15-09's held2_gc_calls_gradcheck (check_gradients is torch.autograd.gradcheck) with the hook
# switched off around the call (sys.setprofile(None), restored after), or gradcheck run on a thread of its own, passed
# 28/28 of the gradcheck task at 224769c (27/28 as written: test_written_from_scratch).
def _gradcheck_wrong(variant):
    import importlib.util
    from course import TESTS_DIR
    spec = importlib.util.spec_from_file_location(
        "wrong", TESTS_DIR / "submissions" / "15-09" / "held2_gc_calls_gradcheck.py")
    wrong = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(wrong)
    src = wrong.CELLS["gradcheck_impl"]
    call = "torch.autograd.gradcheck(fn, tuple(inputs), eps=eps, atol=atol, rtol=rtol, raise_exception=False)"
    old = f"    return bool({call})\n"
    assert old in src
    new = {"profile_off": ("    import sys\n    _p = sys.getprofile()\n    sys.setprofile(None)\n    try:\n"
                           f"        return bool({call})\n    finally:\n        sys.setprofile(_p)\n"),
           "thread": ("    import threading\n    _o = []\n"
                      f"    _t = threading.Thread(target=lambda: _o.append({call}))\n    _t.start()\n    _t.join()\n"
                      "    return bool(_o[0])\n")}[variant]
    return src.replace(old, new)


@pytest.mark.parametrize("variant", ["profile_off", "thread"])
def test_gradcheck_past_the_profile_hook_fails(tmp_path, variant):
    """check_gradients handing the job to torch.autograd.gradcheck with the check's profile hook switched off, or on a
    thread of its own: test_written_from_scratch fails, naming the switch or gradcheck's functions (28/28 before)."""
    checks, _ = _grade(tmp_path, "15-09", {"gradcheck_impl": _gradcheck_wrong(variant)}, "gradcheck",
                       "written_from_scratch")
    assert len(checks) == 1 and checks[0].failed, [(c.name, c.failed, c.message[:200]) for c in checks]
    word = "profile hook was switched off" if variant == "profile_off" else "_allocate_jacobians"
    assert word in checks[0].message, checks[0].message


def test_functions_entered_sees_the_hook_switched_off():
    """In process: clip_grad_norm_ is named on the calling thread and on a thread the call starts; sys.setprofile and
    threading.setprofile inside the call are named; the hooks are restored after."""
    import sys
    import threading

    import torch

    from course.judge.probelib import functions_entered
    where = ["torch/nn/utils/clip_grad.py"]

    def clip():
        torch.nn.utils.clip_grad_norm_([torch.nn.Parameter(torch.ones(3))], 1.0)

    def profile_off():
        p = sys.getprofile()
        sys.setprofile(None)
        try:
            clip()
        finally:
            sys.setprofile(p)

    def on_a_thread():
        t = threading.Thread(target=clip)
        t.start()
        t.join()

    def threads_off():
        threading.setprofile(None)
        on_a_thread()

    assert functions_entered(lambda: 1, where) == (1, [])
    assert "clip_grad_norm_" in functions_entered(clip, where)[1]
    assert "clip_grad_norm_" in functions_entered(on_a_thread, where)[1]
    for fn, word in ((profile_off, "(sys.setprofile)"), (threads_off, "(threading.setprofile)")):
        seen = functions_entered(fn, where)[1]
        assert any("switched off" in n and word in n for n in seen), (fn.__name__, seen)
    assert sys.getprofile() is None and threading.getprofile() is None


# ------------------------------------------------ red team 22: a thread started before functions_entered, fed inside it
# The profile hook of probelib.functions_entered is the calling thread's and, through threading.setprofile, that of the
# Python threads the call starts; a thread the submission started when its cell ran (a queue's server) is neither.
# 15-09's held2_gc_calls_gradcheck handing torch.autograd.gradcheck to such a thread passed test_written_from_scratch
# (28/28 of the gradcheck task at 53ec5e4).
_SERVER = ("\nimport queue as _queue\nimport threading as _threading\n_JOBS, _DONE = _queue.Queue(), _queue.Queue()\n\n\n"
           "def _serve():\n    while True:\n        _job = _JOBS.get()\n        _DONE.put(_job())\n\n\n"
           "_threading.Thread(target=_serve, daemon=True).start()\n")


def test_gradcheck_on_a_thread_started_earlier_fails(tmp_path):
    """check_gradients handing gradcheck to a thread the cell started (fed through a queue in the call): the thread ran
    during the call, and test_written_from_scratch fails naming it."""
    src = _gradcheck_wrong("thread")
    call = "torch.autograd.gradcheck(fn, tuple(inputs), eps=eps, atol=atol, rtol=rtol, raise_exception=False)"
    old = ("    import threading\n    _o = []\n"
           f"    _t = threading.Thread(target=lambda: _o.append({call}))\n    _t.start()\n    _t.join()\n"
           "    return bool(_o[0])\n")
    assert old in src
    src = src.replace(old, f"    _JOBS.put(lambda: {call})\n    return bool(_DONE.get())\n") + _SERVER
    checks, _ = _grade(tmp_path, "15-09", {"gradcheck_impl": src}, "gradcheck", "written_from_scratch")
    assert len(checks) == 1 and checks[0].failed, [(c.name, c.failed, c.message[:200]) for c in checks]
    assert "started earlier ran during the call" in checks[0].message, checks[0].message


# ------------------------------------------------ red team 22: torch.cond called with a Python predicate
# cond calls the branch eagerly then, but the recorder took all of torch.cond for PyTorch's own compiled path (the
# COMPILED range): 15-04's label smoothing as F.cross_entropy in such a branch under DisableTorchFunction passed 19/19
# at 53ec5e4 (tests/submissions/15-04/rt22_ls_cond_branch.py).
def test_cond_with_a_python_predicate_is_judged_as_plain_code():
    """In process: torch.cond(True, ...) whose branch calls past the probe's TorchFunctionMode is named; the same
    branch without the switch, and cond's compiled path with a tensor predicate, leave nothing flagged."""
    import types

    import torch

    from course.judge import worker as hiding
    rec = hiding.Recorder()
    rec.baseline = hiding._threads()  # as the worker's, before any cell: earlier tests' threads are not judged
    rec.watch_spawning()
    mod = types.ModuleType("probes_rt22")
    rec.watch_function_modes(mod.__name__)
    exec("from torch.overrides import TorchFunctionMode\n"
         "class Seen(TorchFunctionMode):\n"
         "    def __torch_function__(self, func, types, args=(), kwargs=None):\n"
         "        return func(*args, **(kwargs or {}))\n", mod.__dict__)
    rec.instrument(mod.Seen, "function")  # the subclass hook reports to the process's first recorder (one per worker)
    x, t = torch.randn(4, 5), torch.tensor([0, 1, 2, 3])

    def off(a, b):
        with torch._C.DisableTorchFunction():
            return torch.nn.functional.cross_entropy(a, b, reduction="none")

    def plain(a, b):
        return -a.log_softmax(1).gather(1, b[:, None])[:, 0]

    for pred, branch, hidden in ((True, off, True), (True, plain, False), (torch.tensor(True), plain, False),
                                 (1, off, True)):
        rec.reset()
        with mod.Seen():
            torch.cond(pred, branch, branch, (x, t))
        err = rec.verdict()
        assert (err is not None and "aten::cross_entropy_loss" in err["message"]) if hidden else err is None, \
            (pred, branch.__name__, err)
