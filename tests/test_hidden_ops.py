"""Ops hidden from a probe's op log (red team 19, issue 38).

A check of how a result is computed reads what a TorchDispatchMode of the assignment's probes was shown while the
submission ran, in the submission's own process. One public line switches that mode off around a call
(``torch.utils._python_dispatch._disable_current_modes()``, the Python dispatch key excluded, the mode popped by
hand), and then the log shows nothing forbidden and nothing large. Measured at 650f4c5 (seed 20261203, the real
worker and judge): 16-03's ``blocked_attention`` as one call of ``F.scaled_dot_product_attention`` under
``_disable_current_modes`` passed its tile, memory and one-pass checks (the memory check is essential), and the
reference's sdpa returning PyTorch's own attention under it passed the essential does-not-call check.

``course.judge.worker.Recorder`` runs the dispatcher's own record (PyTorch's legacy CPU profiler, below every Python
mode) while a probe's mode is entered: an outermost op without a ``PythonDispatchMode`` event inside ran out of the
mode's sight, and the call fails (``HiddenFromProbe``), with one incident for the instructor. The suite tests below
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
    return res.for_notebook(str(nb)), res.events


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
    rec.instrument(mod.Log)
    x = torch.randn(3, 4, requires_grad=True)

    def plain():
        lin = torch.nn.Linear(4, 2)
        y = torch.nn.functional.scaled_dot_product_attention(x[None], x[None], x[None])
        (lin(x).sum() + y.sum()).backward()

    rec.reset()
    with mod.Log() as log:
        plain()
    assert rec.verdict() is None, rec.verdict()
    assert "scaled_dot_product_attention" in log.names or "_scaled_dot_product_flash_attention_for_cpu" in log.names
    rec.reset()
    with mod.Log():
        with _disable_current_modes():
            torch.nn.functional.scaled_dot_product_attention(x[None], x[None], x[None])
    err = rec.verdict()
    assert err and err["type"] == "HiddenFromProbe" and "scaled_dot_product" in err["message"], err
    rec.reset()
    assert rec.verdict() is None
