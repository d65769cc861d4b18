"""A probe call that leaves a process-wide setting changed fails, naming the setting (worker and
in-process runs alike); a call that changes it inside a `with` block does not."""
import pytest
import torch

from course.judge.adapter import InProcessStudent, StudentError
from course.judge.worker import global_settings, settings_leak

PROBES = {"t": '''
import torch
def leave_no_grad(ns):
    torch.set_grad_enabled(False)
    return 1
def scoped(ns):
    with torch.no_grad(), torch.autograd.set_detect_anomaly(True):
        torch.set_default_dtype(torch.float64)
        torch.set_default_dtype(torch.float32)
    return 2
def leave_dtype(ns):
    torch.set_default_dtype(torch.float64)
    return 3
def leave_filter(ns):
    import warnings
    warnings.simplefilter("always")
    return 4
def scoped_filter(ns):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", category=UserWarning)
    return 5
def narrow_filter(ns):  # what libraries do when imported: one message, not every warning
    import warnings
    warnings.filterwarnings("ignore", message="this one message")
    return 6
def leave_device(ns):
    torch.set_default_device("meta")
    return 7
def leave_precision(ns):
    torch.set_float32_matmul_precision("medium")
    return 8
def leave_dispatch_mode(ns):
    from torch.utils._python_dispatch import TorchDispatchMode
    class Log(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            return func(*args, **(kwargs or {}))
    Log().__enter__()
    return 9
def leave_saved_hooks(ns):
    torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t).__enter__()
    return 10
def leave_module_hook(ns):
    torch.nn.modules.module.register_module_forward_hook(lambda m, i, o: None)
    return 11
def scoped_everything(ns):
    from torch.utils._python_dispatch import TorchDispatchMode
    class Log(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            return func(*args, **(kwargs or {}))
    with torch.device("meta"), Log(), torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
        torch.ones(2) * 2
    handle = torch.nn.modules.module.register_module_forward_hook(lambda m, i, o: None)
    handle.remove()
    return 12
'''}


def test_leak_names_the_setting_before_and_after():
    before = global_settings()
    assert settings_leak(before, global_settings()) is None
    torch.set_grad_enabled(False)
    try:
        err = settings_leak(before, global_settings())
    finally:
        torch.set_grad_enabled(True)
    assert err["type"] == "GlobalStateLeak"
    assert "torch.is_grad_enabled() was True before the call and False after it" in err["message"]


def _undo_leaks():
    """Put back what the leaking probes left (this test process goes on)."""
    from torch.nn.modules import module as m
    from course.judge.worker import reset_globals
    reset_globals()
    while torch._C._len_torch_dispatch_stack():
        torch.utils._python_dispatch._pop_mode()
    while torch._C._autograd._top_saved_tensors_default_hooks(False) is not None:
        torch._C._autograd._pop_saved_tensors_default_hooks()
    m._global_forward_hooks.clear()


@pytest.mark.parametrize("probe,setting", [("leave_no_grad", "torch.is_grad_enabled()"),
                                           ("leave_dtype", "torch.get_default_dtype()"),
                                           ("leave_filter", "the warning filters for all warnings"),
                                           ("leave_device", "torch.get_default_device()"),
                                           ("leave_precision", "torch.get_float32_matmul_precision()"),
                                           ("leave_dispatch_mode", "the number of active TorchDispatchModes"),
                                           ("leave_saved_hooks", "saved-tensor hooks"),
                                           ("leave_module_hook", "the number of global module hooks")])
def test_in_process_call_fails_on_a_leak(probe, setting):
    student = InProcessStudent({}, PROBES)
    try:
        with pytest.raises(StudentError, match=setting.replace("(", r"\(").replace(")", r"\)")):
            student.call(probe)
    finally:
        _undo_leaks()
    assert student.call("scoped") == 2
    assert student.call("scoped_everything") == 12


def test_warning_filters_changed_for_every_warning_are_a_leak():
    """A broad filter set outside `warnings.catch_warnings()` stays for the rest of the process; one
    set inside it, or a filter for one message, is no leak."""
    import warnings
    student = InProcessStudent({}, PROBES)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(StudentError, match=r"warning filters for all warnings.*was \[ignore:Warning.* before the call "
                                               r"and \[always:Warning, ignore:Warning"):
            student.call("leave_filter")
    with warnings.catch_warnings():
        assert student.call("scoped_filter") == 5
        assert student.call("narrow_filter") == 6
