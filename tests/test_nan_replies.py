"""A reply the submission chooses is data, and NaN is data that no comparison finds too far: a check written
``if abs(got - want) > tol: fail(...)`` passes a NaN. 15-03's param_groups checks were written so, and one group
of every trainable parameter with lr and weight_decay NaN passed 17 of its 18 checks (zeros pass 3), without the
head or the decay rule (red team 8). Driven in-process here: the checks and probes as the judge runs them."""
import runpy
import math

import pytest
import torch

from course import TESTS_DIR
from course.judge.adapter import InProcessStudent
from course.judge.expect import CheckFailed

NAN_GROUPS = '''
def param_groups(model, lr, weight_decay, head_lr_mult=10.0, head_prefix="head"):
    return [{"params": [p for p in model.parameters() if p.requires_grad], "lr": float("nan"),
             "weight_decay": float("nan")}]
'''


@pytest.fixture(scope="module")
def checks():
    return runpy.run_path(str(TESTS_DIR / "15-03" / "test_param_groups.py"))


@pytest.fixture(scope="module")
def nan_student():
    ns = {"torch": torch, "nn": torch.nn}
    exec(NAN_GROUPS, ns)
    return InProcessStudent(ns, {"15-03": (TESTS_DIR / "15-03" / "probes.py").read_text()})


@pytest.mark.parametrize("check, args", [
    ("test_learning_rates", ("tiny", 10.0)),
    ("test_weight_decay_rule", ("norms",)),
    ("test_head_prefix_and_its_separator", ("head2",)),
], ids=["lr", "weight_decay", "prefix"])
def test_a_nan_learning_rate_or_decay_fails_the_rule_checks(checks, nan_student, check, args):
    assert math.isnan(nan_student.call("param_groups_run", model="tiny", seed=3, lr=0.1, weight_decay=0.1,
                                       head_lr_mult=10.0, steps=0)["groups"][0]["lr"])
    with pytest.raises(CheckFailed):
        checks[check](nan_student, torch.Generator().manual_seed(4), *args)
