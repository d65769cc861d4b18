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


@pytest.mark.parametrize("probe,setting", [("leave_no_grad", "torch.is_grad_enabled()"),
                                           ("leave_dtype", "torch.get_default_dtype()")])
def test_in_process_call_fails_on_a_leak(probe, setting):
    student = InProcessStudent({}, PROBES)
    try:
        with pytest.raises(StudentError, match=setting.replace("(", r"\(").replace(")", r"\)")):
            student.call(probe)
    finally:
        torch.set_grad_enabled(True)
        torch.set_default_dtype(torch.float32)
    assert student.call("scoped") == 2
