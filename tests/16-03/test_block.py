"""Hidden checks of PreNormBlock (exercise 3), against nn.TransformerEncoderLayer(norm_first=True, dropout=0)."""
import pytest
import torch
import torch.nn as nn

from course.judge.expect import expect, expect_close, expect_equal, fail

pytestmark = pytest.mark.task("block")
f64 = torch.float64
TOL = {"atol": 1e-10, "rtol": 1e-8}


def torch_layer(gen, cfg):
    """PyTorch's pre-norm layer in float64, every parameter random (LayerNorm affine and biases included)."""
    layer = nn.TransformerEncoderLayer(cfg["d_model"], cfg["nhead"], cfg["dim_feedforward"], dropout=0.0,
                                       activation=cfg.get("activation", "relu"),
                                       layer_norm_eps=cfg.get("layer_norm_eps", 1e-5),
                                       batch_first=cfg.get("batch_first", False), norm_first=True, dtype=f64)
    with torch.no_grad():
        for name, p in layer.named_parameters():
            base = 1.0 if name.startswith("norm") and name.endswith("weight") else 0.0
            p.copy_(base + torch.randn(p.shape, generator=gen, dtype=f64) / p.shape[-1] ** 0.5)
    return layer.train()  # train mode with dropout 0: the plain path, never the fused inference kernel


def describe(cfg):
    return "PreNormBlock(" + ", ".join(f"{k}={v!r}" for k, v in cfg.items()) + ")"


def as_ref(masks):
    """The masks as PyTorch's layer takes them: a boolean one given with a float one becomes -inf / 0."""
    if len({m.dtype == torch.bool for m in masks.values()}) < 2:
        return masks
    return {k: m if m.dtype != torch.bool else torch.zeros(m.shape, dtype=f64).masked_fill(m, float("-inf"))
            for k, m in masks.items()}


def again_calls(gen, src, masks):
    """Two more calls on the same block: fresh masks of the same kinds and shapes (key 0 always allowed), then none."""
    fresh = {}
    for k, m in masks.items():
        out = torch.rand(m.shape, generator=gen) < 0.4
        out[..., 0] = False
        fresh[k] = out if m.dtype == torch.bool else \
            torch.randn(m.shape, generator=gen, dtype=f64).masked_fill(out, float("-inf"))
    return [{"src": src, **fresh}, {"src": src}]


def check_again(res, want, cfg):
    """The outputs of the calls again_calls made on the same block, against PyTorch's layer."""
    got = res.get("again")
    if not isinstance(got, list) or len(got) != len(want["again"]):
        fail(f"{describe(cfg)}: the probe returned {type(got).__name__} for the {len(want['again'])} later calls on "
             f"the same block")
    for i, (g, w) in enumerate(zip(got, want["again"])):
        expect_close(g, w, f"{describe(cfg)}: after a first call with masks, the call {i + 2} on the same block " +
                     ("with other masks of the same kinds and shapes" if i == 0 else "with no mask") +
                     " (each call's masks are that call's arguments: nothing is kept from an earlier call)", **TOL)


def run(student, gen, cfg, src, grads=False, ref_masks=None, again=(), **masks):
    """ref_masks: the same masks as given to PyTorch's layer, when they differ in form only. again: more calls on the
    same block (dicts of forward's arguments), their outputs checked here against PyTorch's layer."""
    ref = torch_layer(gen, cfg)
    state = {k: v.detach().clone() for k, v in ref.state_dict().items()}
    src_ref = src.clone().requires_grad_(grads)
    want = ref(src_ref, **(masks if ref_masks is None else ref_masks))
    v_out = torch.randn(want.shape, generator=gen, dtype=f64) if grads else None
    res = student.call("block_run", cfg=cfg, state=state, src=src, v_out=v_out, again=list(again), **masks)
    if not isinstance(res["out"], torch.Tensor):
        fail(f"{describe(cfg)}(src) returned {res['out']}, not a tensor")
    expected = {"out": want.detach()}
    with torch.no_grad():
        expected["again"] = [ref(c["src"], **as_ref({k: t for k, t in c.items() if k != "src"})) for c in again]
    if grads:
        params = dict(ref.named_parameters())
        names = list(params)
        g = torch.autograd.grad(want, [src_ref] + [params[n] for n in names], v_out)
        expected["grad_src"] = g[0]
        expected["param_grads"] = dict(zip(names, g[1:]))
    return res, expected


def seq(gen, n, length, d, batch_first):
    return torch.randn((n, length, d) if batch_first else (length, n, d), generator=gen, dtype=f64)


def test_state_dict_layout(student, gen):
    """sub-modules and state dict keys are nn.TransformerEncoderLayer's"""
    h = int(torch.randint(1, 5, (), generator=gen))
    cfg = {"d_model": h * int(torch.randint(1, 6, (), generator=gen)), "nhead": h,
           "dim_feedforward": int(torch.randint(1, 40, (), generator=gen))}
    got = student.call("block_layout", cfg=cfg)
    want = {k: list(v.shape) for k, v in nn.TransformerEncoderLayer(**cfg, norm_first=True).state_dict().items()}
    expect_equal(got, want, f"the state dict keys and shapes of {describe(cfg)}")


CONFIGS = [
    {"d_model": 8, "nhead": 2, "dim_feedforward": 16, "batch_first": True},
    {"d_model": 8, "nhead": 2, "dim_feedforward": 16},
    {"d_model": 12, "nhead": 4, "dim_feedforward": 7, "activation": "gelu", "batch_first": True},
    {"d_model": 6, "nhead": 1, "dim_feedforward": 10, "layer_norm_eps": 0.5, "batch_first": True},
]


@pytest.mark.essential
@pytest.mark.parametrize("cfg", CONFIGS, ids=[describe(c) for c in CONFIGS])
def test_matches_torch(student, gen, cfg):
    """equals nn.TransformerEncoderLayer(norm_first=True, dropout=0.0) with the same state dict"""
    x = seq(gen, 3, 5, cfg["d_model"], cfg.get("batch_first", False))
    if cfg.get("layer_norm_eps", 1e-5) > 0.1:
        x = 0.2 * x  # small variance: the eps term matters
    res, want = run(student, gen, cfg, x)
    expect_close(res["out"], want["out"], f"{describe(cfg)}(src {tuple(x.shape)}) (pre-norm: "
                 f"x + attn(norm1(x)), then x + linear2(act(linear1(norm2(x)))))", **TOL)


@pytest.mark.parametrize("kind", ["causal src_mask", "float src_mask", "src_key_padding_mask", "both",
                                  "bool src_mask, float padding"])
@pytest.mark.parametrize("bf", [True, False])
def test_masks(student, gen, kind, bf):
    """src_mask and src_key_padding_mask follow nn.MultiheadAttention's conventions, alone and together"""
    cfg = {"d_model": 8, "nhead": 2, "dim_feedforward": 16, "batch_first": bf}
    x = seq(gen, 2, 5, 8, bf)
    if kind == "causal src_mask":
        masks = {"src_mask": torch.ones(5, 5, dtype=torch.bool).triu(1)}
    elif kind == "float src_mask":
        masks = {"src_mask": torch.randn(5, 5, generator=gen, dtype=f64)}
    elif kind == "src_key_padding_mask":
        masks = {"src_key_padding_mask": torch.tensor([[False] * 5, [False, False, True, True, True]])}
    else:  # both at once: a causal src_mask and padding (boolean, or float with -inf)
        masks = {"src_mask": torch.ones(5, 5, dtype=torch.bool).triu(1),
                 "src_key_padding_mask": torch.tensor([[False] * 5, [False, False, False, True, True]])}
    ref_masks = None
    if kind == "bool src_mask, float padding":
        pad = torch.randn(2, 5, generator=gen, dtype=f64).masked_fill(masks["src_key_padding_mask"], float("-inf"))
        masks["src_key_padding_mask"] = pad
        # PyTorch turns the boolean src_mask into -inf / 0 itself next to a float padding mask (and warns)
        ref_masks = {"src_mask": torch.zeros(5, 5, dtype=f64).masked_fill(masks["src_mask"], float("-inf")),
                     "src_key_padding_mask": pad}
    res, want = run(student, gen, cfg, x, ref_masks=ref_masks, again=again_calls(gen, x, masks), **masks)
    expect_close(res["out"], want["out"], f"{describe(cfg)}(src, {kind}) (True = not allowed / ignore; given "
                 f"together, both masks apply, a boolean one as -inf whatever the kind of the other)", **TOL)
    check_again(res, want, cfg)


@pytest.mark.parametrize("bf", [True, False])
def test_gradients(student, gen, bf):
    """gradients reach the input and every parameter, and equal PyTorch's, in both layouts"""
    cfg = {"d_model": 8, "nhead": 2, "dim_feedforward": 12, "activation": "gelu" if bf else "relu", "batch_first": bf}
    x = seq(gen, 2, 4, 8, bf)
    if bf:
        masks, name = {"src_mask": torch.ones(4, 4, dtype=torch.bool).triu(1)}, "causal src_mask"
    else:
        masks, name = {"src_key_padding_mask": torch.tensor([[False] * 4, [False, False, True, True]])}, "padding"
    res, want = run(student, gen, cfg, x, grads=True, **masks)
    what = f"the gradients of <g, {describe(cfg)}(src, {name})>"
    expect_close(res["grad_src"], want["grad_src"], f"{what} with respect to src", **TOL)
    got = res["param_grads"]
    expect_equal(sorted(got), sorted(want["param_grads"]), f"the parameter names of {describe(cfg)}")
    for name, g in want["param_grads"].items():
        if got[name] is None:
            fail(f"{what}: no gradient reached the parameter {name}")
        expect_close(got[name], g, f"{what} with respect to {name}", **TOL)


def test_arguments_by_position(student, gen):
    """PreNormBlock(d_model, nhead, dim_feedforward, activation, layer_norm_eps, batch_first): every argument by
    position, in that order"""
    args = [6, 2, 9, "gelu", 0.5, True]
    cfg = dict(zip(["d_model", "nhead", "dim_feedforward", "activation", "layer_norm_eps", "batch_first"], args))
    ref = torch_layer(gen, cfg)
    state = {k: t.detach().clone() for k, t in ref.state_dict().items()}
    src = seq(gen, 2, 5, 6, True)
    with torch.no_grad():
        want = ref(src)
    what = f"PreNormBlock({', '.join(map(repr, args))}) (every argument by position: activation='gelu', " \
        f"layer_norm_eps=0.5, batch_first=True) on src (2, 5, 6)"
    res = student.call("block_positional", args=args, state=state, src=src)
    expect_equal(res.get("keys"), sorted(state), f"the state dict keys of {what}")
    expect("error" not in res, f"{what} raised {res.get('error')}")
    expect_close(res["out"], want, what + " against nn.TransformerEncoderLayer(6, 2, 9, dropout=0.0, "
                 "activation='gelu', layer_norm_eps=0.5, batch_first=True, norm_first=True) with the same state (the "
                 "text: 'PreNormBlock(d_model, nhead, dim_feedforward, activation=\"relu\", layer_norm_eps=1e-5, "
                 "batch_first=False)')", **TOL)


@pytest.mark.essential
def test_does_not_use_torch_layer(student, gen):
    """nn.TransformerEncoderLayer and nn.TransformerEncoder are not used"""
    cfg = {"d_model": 8, "nhead": 2, "dim_feedforward": 16, "batch_first": True}
    res, want = run(student, gen, cfg, seq(gen, 2, 3, 8, True))
    expect(not res["calls"], f"{describe(cfg)} used PyTorch's layer ({', '.join(res['calls'])}): compose it from "
           f"attention, nn.Linear and nn.LayerNorm")
    expect_close(res["out"], want["out"], f"{describe(cfg)}(src)", **TOL)


def test_one_token_one_feature(student, gen):
    """the smallest input: d_model 1, one head, one sequence of one token"""
    cfg = {"d_model": 1, "nhead": 1, "dim_feedforward": 3, "batch_first": True}
    x = seq(gen, 1, 1, 1, True)
    res, want = run(student, gen, cfg, x)
    expect_close(res["out"], want["out"], f"{describe(cfg)}(src of shape (1, 1, 1))", **TOL)
