"""The generic signature check (course.judge.generic.signatures): wrong def lines rejected, correct ones written
differently accepted, hostile objects answered with a message, and every topic's skeleton read."""
import ast
import functools
import textwrap

import pytest
import torch

from course import SOURCE_DIR
from course.judge.generic import signatures
from course.judge.expect import CheckFailed
from course.judge.probelib import signatures_of

SKELETON = '''
def step(params, lr=0.001, betas=(0.9, 0.999), eps=1e-08, dtype=torch.uint8, *, foreach=None, name="adam"):
    raise NotImplementedError()

class Scaled(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y, alpha):
        raise NotImplementedError()

    @staticmethod
    def backward(ctx, grad_out):
        raise NotImplementedError()

class Meter:
    def __init__(self, num_classes, momentum=0.0, _parents=()):
        raise NotImplementedError()

    def update(self, loss, logits):
        raise NotImplementedError()

    def __len__(self):
        raise NotImplementedError()

    def _helper(self, anything):
        pass

def _private(a):
    pass
'''


def judge(student_code: str) -> str | None:
    """The check's message for a submission defining student_code (None: it passes)."""
    entries = {n.name: signatures._entry(n) for n in ast.parse(SKELETON).body}
    entries = {k: v for k, v in entries.items() if v}
    ns = {"torch": torch, "functools": functools}
    exec(textwrap.dedent(student_code), ns)
    names = {k: None if v["kind"] == "function" else sorted(v["methods"]) for k, v in entries.items()}
    reply = signatures_of(ns, names)
    skeleton = {"task": entries}
    old = signatures.skeleton
    signatures.skeleton = lambda a: skeleton
    try:
        signatures.check("x", "task", reply)
    except CheckFailed as exc:
        return str(exc)
    finally:
        signatures.skeleton = old
    return None


REFERENCE = SKELETON.replace("raise NotImplementedError()", "return None")


def variant(old: str, new: str) -> str:
    assert old in REFERENCE, old
    return REFERENCE.replace(old, new, 1)


def test_the_skeleton_itself_passes():
    assert judge(REFERENCE) is None


def test_private_names_are_not_read():
    assert judge(variant("def _private(a):", "def _private(b, c):")) is None
    assert judge(variant("def _helper(self, anything):", "def _helper(self):")) is None


@pytest.mark.parametrize("old,new,said", [
    ("def step(params, lr=0.001,", "def step(params, learning_rate=0.001,", "no parameter 'lr'"),
    ("def step(params, lr=0.001, betas=(0.9, 0.999),", "def step(params, betas=(0.9, 0.999), lr=0.001,",
     "'lr' is parameter 3; the skeleton has it as parameter 2"),
    ("lr=0.001,", "lr=0.01,", "the default of 'lr' is 0.01; the skeleton's is 0.001"),
    ("lr=0.001,", "lr=None,", "the default of 'lr' is None"),
    ("lr=0.001,", "lr,", "'lr' has no default"),
    ("betas=(0.9, 0.999)", "betas=(0.9, 0.99)", "the default of 'betas'"),
    ("dtype=torch.uint8", "dtype=torch.int8", "the default of 'dtype' is torch.int8"),
    ('name="adam"', 'name="Adam"', "the default of 'name'"),
    ("def step(params, lr=0.001,", "def step(params, /, lr=0.001,", "'params' is positional-only"),
    ("def __init__(self, num_classes, momentum=0.0, _parents=()):", "def __init__(self, num_classes, *, momentum=0.0):",
     "'momentum' is keyword-only"),
    ("def step(params, lr=0.001,", "def step(params, extra, lr=0.001,", "'lr' is parameter 3"),
    ('name="adam"):', 'name="adam", verbose):', "it needs 'verbose'"),
    ("def __init__(self, num_classes, momentum=0.0, _parents=()):", "def __init__(self, num_classes, momentum=False):",
     "the default of 'momentum' is False"),
    ("def update(self, loss, logits):", "def update(self, logits, loss):", "'loss' is parameter 3"),
    ("def forward(ctx, x, y, alpha):", "def forward(ctx, x, y):", "positional arguments; the skeleton's takes 4"),
    ("def backward(ctx, grad_out):", "def backward(ctx, grad_out, extra):", "takes 3"),
    ("def __len__(self):", "def __len__(self, extra):", "takes 2"),
])
def test_a_changed_def_line_fails_naming_the_difference(old, new, said):
    msg = judge(variant(old, new))
    assert msg is not None and said in msg, msg
    assert signatures.RULE in msg


def test_a_name_or_method_left_out_is_not_read_but_a_non_class_is():
    # a method the class leaves out is the business of the checks that call it (a restructured correct answer)
    assert judge(variant("def update(self, loss, logits):", "def other(self, loss, logits):")) is None
    assert judge(REFERENCE.replace("def step(", "def stepper(")) is None  # not defined: the other checks say so
    assert "is a function, not a class" in judge(REFERENCE.replace("class Meter:", "class _M:") + "\nMeter = print\n"
                                                 .replace("print", "lambda: None"))


@pytest.mark.parametrize("old,new", [
    ("lr=0.001,", "lr: float = 1e-3,"),                      # annotations, the same float written differently
    ("def __init__(self, num_classes, momentum=0.0, _parents=()):", "def __init__(self, num_classes, momentum=0):"),  # 0 == 0.0
    ("betas=(0.9, 0.999)", "betas=[0.9, 0.999]"),            # a list of the same items
    ('name="adam"):', 'name="adam", verbose=False, **kw):'),  # added after, with defaults
    ("*, foreach=None,", "foreach=None, *,"),                 # keyword-only in the skeleton, positional too here
    ("def forward(ctx, x, y, alpha):", "def forward(c, a, b, s):"),  # called by position: names free
    ("def backward(ctx, grad_out):", "def backward(ctx, *grads):"),
    ("def __len__(self):", "def __len__(me):"),
    ("momentum=0.0, _parents=()):", "momentum=0.0, _kids=None, _op=''):"),  # the skeleton's plumbing: free
    ("def update(self, loss, logits):", "def update(this, loss, logits, weight=1.0):"),
])
def test_correct_def_lines_written_differently_pass(old, new):
    assert judge(variant(old, new)) is None


def test_wrapped_decorated_inherited_and_odd_objects():
    wrapped = REFERENCE.replace("def step(", "def _step(") + textwrap.dedent('''
        @functools.wraps(_step)
        def step(*args, **kwargs):
            return _step(*args, **kwargs)
        ''')
    assert judge(wrapped) is None  # inspect follows __wrapped__
    inherited = REFERENCE.replace("class Meter:", "class _Base:\n    def update(self, loss, logits):\n"
                                  "        pass\n\nclass Meter(_Base):").replace(
        "    def update(self, loss, logits):\n        return None\n", "", 1)
    assert inherited.count("def update") == 1
    assert judge(inherited) is None  # a method from a base class of the student's own counts
    hostile = REFERENCE + textwrap.dedent('''
        class _Sig:
            @property
            def __signature__(self):
                raise RuntimeError("no")
            def __call__(self, *a):
                return None
        step = _Sig()
        ''')
    msg = judge(hostile)
    assert "step: its signature could not be read" in msg


def test_a_forged_reply_is_a_message_not_a_crash():
    entries = {n.name: signatures._entry(n) for n in ast.parse(SKELETON).body}
    skeleton = {"task": {k: v for k, v in entries.items() if v}}
    old = signatures.skeleton
    signatures.skeleton = lambda a: skeleton
    try:
        for reply in (None, [], {"step": []}, {"step": {"params": [{"name": 3}]}},
                      {"step": {"params": [{"name": "params", "kind": 1, "default": []}]}},
                      {"Meter": {"methods": {"update": {"params": "x"}}}}):
            with pytest.raises(CheckFailed):
                signatures.check("x", "task", reply)
    finally:
        signatures.skeleton = old


def test_every_topic_has_its_skeleton_and_a_signature_check():
    for topic in sorted(p.name for p in SOURCE_DIR.iterdir() if p.is_dir()):
        tasks = signatures.tasks(topic)
        assert tasks, topic
        assert (SOURCE_DIR.parent / "tests" / topic / "test_signatures.py").exists(), topic
        for objects in signatures.skeleton(topic).values():
            for entry in objects.values():
                for m in ([entry] if entry["kind"] == "function" else entry["methods"].values()):
                    for p in m["params"]:
                        assert p["default"] is None or "text" not in p["default"], (topic, m["signature"])
