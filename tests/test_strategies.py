"""The shared input strategies and after-the-call snapshots (course/judge/strategies.py, probelib)."""
import io
import warnings

import torch
from hypothesis import given, settings, strategies as st

from course.judge import probelib, strategies

QUICK = settings(max_examples=60, deadline=None, database=None)


def _roundtrip(t):
    bio = io.BytesIO()
    torch.save(t, bio)
    bio.seek(0)
    return torch.load(bio, weights_only=True)


def test_tensors_span_layouts_sizes_and_ranks():
    seen = set()

    @settings(max_examples=300, deadline=None, database=None)
    @given(strategies.tensors())
    def draw(t):
        seen.add(("0-dim" if t.dim() == 0 else "zero-size" if t.numel() == 0 else
                  "contiguous" if t.is_contiguous() else "non-contiguous"))
        seen.add("stride 0" if 0 in t.stride() and t.numel() > 1 else "")
        seen.add("offset" if t.storage_offset() else "")

    draw()
    assert {"0-dim", "zero-size", "contiguous", "non-contiguous", "stride 0", "offset"} <= seen, seen


@QUICK
@given(strategies.tensors(shape=strategies.shapes(1, 4, 1, 4)), st.sampled_from(strategies.LAYOUTS))
def test_relayout_keeps_values_and_survives_the_trip_to_the_worker(t, layout):
    r = strategies.relayout(t, layout)
    assert r.shape == t.shape and r.dtype == t.dtype and torch.equal(r, t)
    if max(t.shape) > 1 and layout in ("transposed", "strided"):
        assert not r.is_contiguous()
    back = _roundtrip(r)
    assert back.stride() == r.stride() and back.storage_offset() == r.storage_offset() and torch.equal(back, r)


def test_writable_layouts_can_be_written_in_place():
    @QUICK
    @given(strategies.tensors(layouts=strategies.WRITABLE_LAYOUTS))
    def draw(t):
        t.add_(1.0)

    draw()


def test_model_specs_build_the_same_model_with_the_drawn_argument_name():
    names = set()

    @settings(max_examples=25, deadline=None, database=None)
    @given(strategies.model_specs())
    def draw(spec):
        a, b = probelib.build_model(spec), strategies.build_model(spec)
        x = torch.randn(3, spec["in"], generator=torch.Generator().manual_seed(0))
        a.eval(), b.eval()
        assert torch.equal(a(x), b(x)) and a(x).shape == (3, spec["out"])
        assert list(torch.export.export(a, (x,)).graph_signature.user_inputs) == [spec["arg"]]
        assert any(isinstance(m, torch.nn.Sequential) and any(isinstance(c, torch.nn.Sequential) for c in m.children())
                   for m in a.modules()), "the layers are nested two levels deep"
        names.add(spec["arg"])

    before = torch.get_rng_state()
    draw()
    assert torch.equal(before, torch.get_rng_state()), "building a model leaves the global RNG alone"
    assert len(names) >= 3


def test_snapshots_name_what_a_call_left_changed():
    before = probelib.global_state(rng=True)
    with warnings.catch_warnings():
        assert probelib.changes(before, probelib.global_state(rng=True)) == []
        warnings.simplefilter("ignore", UserWarning)
        torch.set_default_dtype(torch.float64)
        torch.rand(1)
        try:
            found = probelib.changes(before, probelib.global_state(rng=True))
        finally:
            torch.set_default_dtype(torch.float32)
    assert [line.split(":")[0] for line in found] == [
        "default dtype (torch.get_default_dtype())", "global RNG state (torch.get_rng_state())", "warning filters"], found

    spec = {"arg": "x", "in": 2, "out": 1, "hidden": [3], "norm": True, "dropout": False, "seed": 0}
    model = probelib.build_model(spec)
    snap = probelib.module_state(model)
    handle = model.head.register_forward_hook(lambda *a: None)
    model.body.eval()
    lines = probelib.changes(snap, probelib.module_state(model))
    assert "head: hooks: forward_hooks: 0 before the call, 1 after" in lines, lines
    assert "body: training: True before the call, False after" in lines, lines
    handle.remove()


def test_snapshots_see_modes_and_hooks_left_active():
    """A hook or mode entered and never exited (``__enter__`` called by hand) shows after the call."""
    from torch.utils._python_dispatch import TorchDispatchMode
    before = probelib.global_state()
    hooks = torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t)
    mode, cast = TorchDispatchMode(), torch.autocast("cpu", dtype=torch.bfloat16)
    for cm in (hooks, mode, cast):
        cm.__enter__()
    try:
        found = probelib.changes(before, probelib.global_state())
    finally:
        for cm in (cast, mode, hooks):
            cm.__exit__(None, None, None)
    assert [line.split(":")[0] for line in found] == [
        "autocast on CPU", "saved-tensor hooks (torch.autograd.graph.saved_tensors_hooks)",
        "torch dispatch modes active (TorchDispatchMode)"], found
    assert probelib.changes(before, probelib.global_state()) == []


def test_aliases():
    x = torch.randn(4, 3)
    assert probelib.aliases(x, x) and probelib.aliases(x, x.t()) and probelib.aliases(x, x[1:])
    assert not probelib.aliases(x, x.clone()) and not probelib.aliases(x, torch.empty(0))
