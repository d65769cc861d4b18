"""Hidden checks for fuse_conv_bn (exercise 3).

Expected graphs come from torch.fx.experimental.optimization.fuse (which uses
torch.nn.utils.fusion.fuse_conv_bn_eval) applied to the judge's own copy of
each model; outputs are compared with the unfused model in eval mode.
"""
import importlib.util
import sys
from pathlib import Path

if "course_15_06_judge" not in sys.modules:
    _s = importlib.util.spec_from_file_location("course_15_06_judge", Path(__file__).with_name("judge.py"))
    sys.modules["course_15_06_judge"] = importlib.util.module_from_spec(_s)
    _s.loader.exec_module(sys.modules["course_15_06_judge"])
J = sys.modules["course_15_06_judge"]
P = J.P
import pytest
import torch
import torch.fx as fx
import torch.nn as nn
from hypothesis import given, strategies as st
from torch.fx.experimental.optimization import fuse as torch_fuse

from course.judge.expect import expect, expect_close, expect_raises

pytestmark = pytest.mark.task("fuse_conv_bn")


def _bn_calls(gm):
    return sum(1 for n in gm.graph.nodes
               if n.op == "call_module" and isinstance(gm.get_submodule(n.target), nn.BatchNorm2d))


def _student_bn_calls(res):
    return sum(1 for n in res["nodes"] if n["op"] == "call_module" and n.get("type") == "BatchNorm2d") + res["n_bn_fn"]


def _run(student, desc, gen, cin, hw=(7, 6), channels_last=False, **probe):
    """``channels_last``: the probe moves the model to that memory format (the same values, so the same fold)."""
    model = P.ConvNet(desc).double()
    state = J.randomize(model, gen)
    model.eval()
    x = torch.randn(2, cin, *hw, generator=gen, dtype=torch.float64)
    with torch.no_grad():
        want = model(x)
    ref = torch_fuse(model)
    res = student.call("fuse", desc=desc, state=state, x=x, channels_last=channels_last, **probe)
    return model, ref, res, x, want


def _check_model_state(res, what):
    expect(not res["orig_changes"], f"{what}: afterwards the ORIGINAL model's submodules changed: "
                                    f"{res['orig_changes'][:4]} (modes, hooks or requires_grad; the task: \"Do not "
                                    f"modify `model`\"; symbolic_trace shares the model's leaf modules with the "
                                    f"GraphModule, so a change made to the GraphModule's modules reaches the model)")


def _check_fused(model, ref, res, x, want, label):
    what = f"fuse_conv_bn(model) for model = {label} in eval mode"
    expect(not isinstance(res["out"], str), f"{what}: the fused module did not return a tensor: {res['out']}")
    expect_close(res["orig_after"], want, f"{what}: the ORIGINAL model's output after fusing (do not modify model)",
                 atol=1e-12, rtol=1e-10)
    _check_model_state(res, what)
    expect(not res["lint"]["raised"], f"{what}: the fused graph does not lint: {res['lint']['message'][:200]}")
    expect_close(res["out"], want, f"{what}: fused(x) vs the unfused model(x), x of shape {tuple(x.shape)}",
                 atol=1e-9, rtol=1e-7)
    want_bn = _bn_calls(ref)
    got_bn = _student_bn_calls(res)
    expect(got_bn <= want_bn,
           f"{what}: {got_bn} BatchNorm call(s) are left in the fused graph, but only {want_bn} cannot be fused "
           f"(a BatchNorm whose input is a Conv2d used by nothing else must be folded away)")
    expect(got_bn >= want_bn,
           f"{what}: only {got_bn} BatchNorm call(s) are left in the fused graph, but {want_bn} must stay: a "
           f"BatchNorm must be kept when the conv output it reads has other users, or when its input is not a conv")
    for name, mod in model.named_modules():
        if not isinstance(mod, nn.Conv2d):
            continue
        p = res["params"].get(name)
        expect(p is not None, f"{what}: the fused GraphModule has no submodule '{name}'; keep each (fused) conv "
                              f"under the original conv's qualified name")
        r = ref.get_submodule(name)
        expect_close(p["weight"], r.weight.detach(), f"{what}: weight of conv '{name}' after fusion", atol=1e-10,
                     rtol=1e-8)
        rb = r.bias.detach() if r.bias is not None else torch.zeros(r.out_channels, dtype=torch.float64)
        gb = p["bias"] if p["bias"] is not None else torch.zeros(r.out_channels, dtype=torch.float64)
        expect_close(gb, rb, f"{what}: bias of conv '{name}' after fusion", atol=1e-10, rtol=1e-8)


@st.composite
def architectures(draw):
    c = cin = draw(st.integers(1, 4))
    desc = []
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["conv", "conv", "conv", "skip", "relu_bn"]))
        if kind == "conv":
            g = draw(st.sampled_from([d for d in (1, 2, 3, 4) if c % d == 0]))
            cout = g * draw(st.integers(1, 3))
            desc.append(dict(kind="conv", cin=c, cout=cout, k=draw(st.sampled_from([1, 3])), groups=g,
                             dilation=draw(st.sampled_from([1, 2])), bias=draw(st.booleans()),
                             bn=draw(st.booleans()), eps=draw(st.sampled_from([1e-5, 1e-3]))))
            c = cout
        elif kind == "skip":
            desc.append(dict(kind="skip", c=c, k=draw(st.sampled_from([1, 3])), bias=draw(st.booleans())))
        else:
            desc += [dict(kind="relu"), dict(kind="bn", c=c)]
    return cin, desc


@J.hyp(15)
@given(arch=architectures(), channels_last=st.booleans(), seed=st.integers(0, 2**31 - 1))
def test_random_architectures(student, arch, channels_last, seed):
    """random conv/bn stacks (groups, dilation, bias on/off, shared conv outputs, channels_last) match torch's own
    fusion"""
    cin, desc = arch
    gen = torch.Generator().manual_seed(seed)
    model, ref, res, x, want = _run(student, desc, gen, cin, channels_last=channels_last)
    _check_fused(model, ref, res, x, want, J.fmt_desc(desc) + (" (channels_last)" if channels_last else ""))


def test_grouped_dilated_biasless(student, gen):
    """a depthwise, dilated conv without bias followed by BatchNorm is fused (the model in channels_last memory
    format, as model.to(memory_format=torch.channels_last) leaves it)"""
    desc = [dict(kind="conv", cin=4, cout=4, k=3, groups=4, dilation=2, bias=False, bn=True),
            dict(kind="relu"),
            dict(kind="conv", cin=4, cout=6, k=3, groups=2, dilation=1, bias=True, bn=True, stride=2)]
    _check_fused(*_run(student, desc, gen, 4, hw=(9, 9), channels_last=True),
                 J.fmt_desc(desc) + " moved to channels_last memory format")


def test_conv_with_two_users_left_alone(student, gen):
    """a conv whose output also feeds a skip connection keeps its BatchNorm and its weights"""
    desc = [dict(kind="conv", cin=2, cout=4, k=3, groups=1, dilation=1, bias=True, bn=True),
            dict(kind="skip", c=4, k=3, bias=False)]
    model, ref, res, x, want = _run(student, desc, gen, 2)
    _check_fused(model, ref, res, x, want, J.fmt_desc(desc))
    conv = model.get_submodule("layers.2.conv")
    p = res["params"]["layers.2.conv"]
    expect_close(p["weight"], conv.weight.detach(), "fuse_conv_bn on a residual block: the weight of the conv "
                 "whose output has two users must not change", atol=0, rtol=0)


def test_conv_found_through_bn_input(student, gen):
    """the conv to fold is the BatchNorm's input node, not the node traced just before it"""
    desc = [dict(kind="conv", cin=3, cout=4, k=1, groups=1, dilation=1, bias=False, bn=True),
            dict(kind="branch", c=4, k=3, bias=True)]
    _check_fused(*_run(student, desc, gen, 3), J.fmt_desc(desc))


def test_notebook_model(student, gen):
    """the notebook's FashionNet: same outputs, only the BatchNorm after a shared conv output is left"""
    x = torch.randn(3, 1, 28, 28, generator=gen, dtype=torch.float64)
    seed = int(torch.randint(0, 2**31 - 1, (1,), generator=gen))
    res = student.call("fuse_notebook_model", x=x, seed=seed)
    what = "fuse_conv_bn(FashionNet()) with random BatchNorm statistics in eval mode"
    expect(not isinstance(res["out"], str), f"{what}: the fused module did not return a tensor: {res['out']}")
    # the judge's own FashionNet (the notebook's class) with the same weights and statistics
    torch.manual_seed(1)
    model = J.notebook_fashionnet()().double()
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.running_mean.copy_(torch.randn(m.num_features, generator=g, dtype=torch.float64))
                m.running_var.copy_(torch.rand(m.num_features, generator=g, dtype=torch.float64) + 0.5)
                m.weight.copy_(torch.randn(m.num_features, generator=g, dtype=torch.float64))
                m.bias.copy_(torch.randn(m.num_features, generator=g, dtype=torch.float64))
        model.eval()
        before = model(x)
    expect_close(res["out"], before, f"{what}: fused(x) vs the unfused model(x)", atol=1e-9, rtol=1e-7)
    # which BatchNorms can be folded, judged from the unfused model's own traced graph (torch's fuse)
    want_left = _bn_calls(torch_fuse(model))
    left = sum(1 for n in res["nodes"] if n["op"] == "call_module" and n.get("type") == "BatchNorm2d") \
        + res["n_bn_fn"]
    expect(left == want_left, f"{what}: {left} BatchNorm call(s) left in the fused graph, expected {want_left} "
                              f"(fold every BatchNorm that reads a Conv2d output used by nothing else; keep the rest)")


@pytest.mark.task("fuse_conv_bn", weight=0.1)  # its right answer is a constant ("raised X"): worth little
def test_refuses_training_mode(student, gen):
    """fuse_conv_bn raises RuntimeError for a model in training mode, also for one without any BatchNorm2d"""
    desc = [dict(kind="conv", cin=2, cout=3, k=3, groups=1, dilation=1, bias=True, bn=True)]
    state = J.randomize(P.ConvNet(desc).double(), gen)
    res = student.call("fuse_training", desc=desc, state=state, which="model")
    expect_raises(res, "RuntimeError", "fuse_conv_bn(model) with model.training == True (BatchNorm uses batch "
                                       "statistics in training mode, so folding is invalid)", match="eval")
    # held-out round 29: the text's "If `model` ... is in training mode, raise" holds without a BatchNorm2d too
    desc = [dict(kind="conv", cin=2, cout=3, k=3, groups=1, dilation=1, bias=True, bn=False), dict(kind="relu")]
    state = J.randomize(P.ConvNet(desc).double(), gen)
    res = student.call("fuse_training", desc=desc, state=state, which="model")
    expect_raises(res, "RuntimeError", f"fuse_conv_bn(model) with model.training == True for {J.fmt_desc(desc)}, a "
                                       f"model without any BatchNorm2d (the task: \"If `model`, or any `BatchNorm2d` "
                                       f"inside it, is in training mode, raise a `RuntimeError`\")", match="eval")


@pytest.mark.task("fuse_conv_bn", weight=0.1)  # its right answer is a constant ("raised X"): worth little
def test_refuses_one_bn_in_training_mode(student, gen):
    """fuse_conv_bn raises RuntimeError when one BatchNorm inside an eval model is in training mode"""
    desc = [dict(kind="conv", cin=2, cout=3, k=3, groups=1, dilation=1, bias=False, bn=True), dict(kind="relu"),
            dict(kind="conv", cin=3, cout=3, k=1, groups=1, dilation=1, bias=True, bn=True)]
    state = J.randomize(P.ConvNet(desc).double(), gen)
    res = student.call("fuse_training", desc=desc, state=state, which="one_bn")
    expect_raises(res, "RuntimeError", "fuse_conv_bn(model) where model.eval() was called but then the first "
                                       "BatchNorm2d was put back into training mode", match="eval")


def test_original_model_unchanged(student, gen):
    """fuse_conv_bn does not modify the model it is given, and its graph lints"""
    desc = [dict(kind="conv", cin=3, cout=4, k=3, groups=1, dilation=1, bias=True, bn=True), dict(kind="relu"),
            dict(kind="conv", cin=4, cout=4, k=1, groups=2, dilation=1, bias=False, bn=True)]
    model, ref, res, x, want = _run(student, desc, gen, 3)
    what = f"fuse_conv_bn(model) for model = {J.fmt_desc(desc)}"
    expect(not res["lint"]["raised"], f"{what}: the fused graph does not lint: {res['lint']['message'][:200]}")
    expect_close(res["orig_after"], want, f"{what}: the ORIGINAL model's output after fusing (it must not change; "
                 f"replace modules in the traced copy instead of editing the shared conv weights in place)",
                 atol=1e-12, rtol=1e-10)
    _check_model_state(res, what)
    expect(res["orig_types"].count("BatchNorm2d") == 2,
           f"{what}: the original model lost BatchNorm2d submodules (it has {res['orig_types'].count('BatchNorm2d')} "
           f"left of 2); fuse a copy, not the model itself")


def _special(student, gen, kind):
    model = P.SpecialConvBN(kind).double()
    state = J.randomize(model, gen)
    model.eval()
    x = torch.randn(2, 3, 5, 4, generator=gen, dtype=torch.float64)
    with torch.no_grad():
        want = model(x)
    return student.call("fuse_special", kind=kind, state=state, x=x), want, x


def test_transposed_conv_before_batchnorm_left_alone(student, gen):
    """a ConvTranspose2d is not a Conv2d: its BatchNorm stays (folding it with Conv2d arithmetic changes the output)"""
    res, want, x = _special(student, gen, "transposed")
    what = ("fuse_conv_bn(model) for model = ConvTranspose2d(3, 4, 3, stride=2) -> BatchNorm2d -> relu -> "
            "Conv2d(4, 3, 3) -> BatchNorm2d, in eval mode")
    expect(not isinstance(res["out"], str), f"{what}: the fused module did not return a tensor: {res['out']}")
    expect_close(res["out"], want, f"{what}: fused(x) vs model(x), x of shape {tuple(x.shape)}", atol=1e-9, rtol=1e-7)
    expect(res["bn_left"] == ["up_bn"], f"{what}: BatchNorm calls left {res['bn_left']}, expected ['up_bn'] (only "
                                        f"a Conv2d input is folded; the ConvTranspose2d's BatchNorm stays)")


def test_batchnorm_module_called_three_times(student, gen):
    """one BatchNorm2d module called after two convs and on the input: both conv pairs are folded, the third call
    stays"""
    res, want, x = _special(student, gen, "shared_bn")
    what = ("fuse_conv_bn(model) for model.forward(x) = norm(a(x)) + norm(b(x)) + norm(x), a and b Conv2d(3, 3), norm "
            "one BatchNorm2d module, in eval mode")
    expect(not isinstance(res["out"], str), f"{what}: the fused module did not return a tensor: {res['out']}")
    expect(not res["lint"]["raised"], f"{what}: the fused graph does not lint: {res['lint']['message'][:200]}")
    expect_close(res["out"], want, f"{what}: fused(x) vs model(x), x of shape {tuple(x.shape)}", atol=1e-9, rtol=1e-7)
    expect(res["bn_left"] == ["norm"], f"{what}: BatchNorm calls left {res['bn_left']}, expected ['norm'] (both "
                                       f"Conv2d -> BatchNorm2d pairs are valid and folded; the call on x, whose "
                                       f"input is not a conv, stays and still needs the module)")


def test_refuses_model_in_training_mode_with_eval_batchnorms(student, gen):
    """the model itself in training mode makes fuse_conv_bn raise, even when each BatchNorm2d is in eval mode"""
    desc = [dict(kind="conv", cin=2, cout=3, k=3, groups=1, dilation=1, bias=True, bn=True), dict(kind="relu")]
    state = J.randomize(P.ConvNet(desc).double(), gen)
    x = torch.randn(2, 2, 5, 5, generator=gen, dtype=torch.float64)
    res = student.call("fuse_modes", desc=desc, state=state, which="train_bns_eval", x=x)
    expect_raises(res["error"], "RuntimeError", "fuse_conv_bn(model) where model.train() was called and then each "
                                                "BatchNorm2d put back into eval mode (the model is in training mode)",
                  match="eval")


def test_fuses_eval_model_with_other_modules_training(student, gen):
    """only the model and its BatchNorm2d modules must be in eval mode: a ReLU left in training mode does not stop it"""
    desc = [dict(kind="conv", cin=2, cout=3, k=3, groups=1, dilation=1, bias=False, bn=True), dict(kind="relu"),
            dict(kind="conv", cin=3, cout=2, k=1, groups=1, dilation=1, bias=True, bn=True)]
    model = P.ConvNet(desc).double()
    state = J.randomize(model, gen)
    model.eval()
    x = torch.randn(2, 2, 5, 5, generator=gen, dtype=torch.float64)
    with torch.no_grad():
        want = model(x)
    res = student.call("fuse_modes", desc=desc, state=state, which="others_train", x=x)
    what = ("fuse_conv_bn(model) for an eval model whose convs and ReLU (not its BatchNorm2d modules) were put "
            "back into training mode")
    err = res["error"]
    expect(not err["raised"], f"{what} raised {err['type']}: {err['message'][:200]}; the text asks to raise only "
                              f"when the model or a BatchNorm2d inside it is in training mode")
    expect_close(res["out"], want, f"{what}: fused(x) vs model(x)", atol=1e-9, rtol=1e-7)


def test_refuses_bn_forward_never_calls_in_training_mode(student, gen):
    """a BatchNorm2d inside the model that forward never calls, in training mode, makes fuse_conv_bn raise too
    ("any BatchNorm2d inside it", not only those in the graph)"""
    desc = [dict(kind="conv", cin=2, cout=3, k=3, groups=1, dilation=1, bias=True, bn=True), dict(kind="relu")]
    state = J.randomize(P.ConvNet(desc).double(), gen)
    x = torch.randn(2, 2, 5, 5, generator=gen, dtype=torch.float64)
    res = student.call("fuse_modes", desc=desc, state=state, which="spare_bn2d_train", x=x)
    expect_raises(res["error"], "RuntimeError", "fuse_conv_bn(model) for an eval model holding one more BatchNorm2d "
                                                "(model.spare) that forward never calls, left in training mode",
                  match="eval")


def test_refuses_batchnorm2d_subclass_in_training_mode(student, gen):
    """an instance of a subclass of BatchNorm2d is a BatchNorm2d: left in training mode, it makes fuse_conv_bn raise"""
    desc = [dict(kind="conv", cin=2, cout=3, k=3, groups=1, dilation=1, bias=True, bn=True), dict(kind="relu")]
    state = J.randomize(P.ConvNet(desc).double(), gen)
    x = torch.randn(2, 2, 5, 5, generator=gen, dtype=torch.float64)
    res = student.call("fuse_modes", desc=desc, state=state, which="spare_sub_bn2d_train", x=x)
    expect_raises(res["error"], "RuntimeError", "fuse_conv_bn(model) for an eval model holding one more module "
                                                "(model.spare) of class SubBatchNorm2d(nn.BatchNorm2d), left in "
                                                "training mode (isinstance(m, nn.BatchNorm2d) is True for it, "
                                                "type(m) is nn.BatchNorm2d is not)", match="eval")


def test_fuses_with_batchnorm1d_in_training_mode(student, gen):
    """only BatchNorm2d modules must be in eval mode: a BatchNorm1d left in training mode does not stop fusion"""
    desc = [dict(kind="conv", cin=2, cout=3, k=3, groups=1, dilation=1, bias=False, bn=True), dict(kind="relu")]
    model = P.ConvNet(desc).double()
    state = J.randomize(model, gen)
    model.eval()
    x = torch.randn(2, 2, 5, 5, generator=gen, dtype=torch.float64)
    with torch.no_grad():
        want = model(x)
    res = student.call("fuse_modes", desc=desc, state=state, which="spare_bn1d_train", x=x)
    what = "fuse_conv_bn(model) for an eval model holding a BatchNorm1d (model.spare) in training mode"
    err = res["error"]
    expect(not err["raised"], f"{what} raised {err['type']}: {err['message'][:200]}; the text asks to raise only "
                              f"when the model or a BatchNorm2d inside it is in training mode")
    expect_close(res["out"], want, f"{what}: fused(x) vs model(x)", atol=1e-9, rtol=1e-7)


def test_conv_module_called_twice_left_alone(student, gen):
    """a Conv2d module that forward calls twice keeps its BatchNorms and its weights (a fold under its name would
    change its other call too); a conv called once is still folded"""
    res, want, x = _special(student, gen, "shared_conv")
    what = ("fuse_conv_bn(model) for model.forward(x) = n1(a(x)) + a(2 * x) + n2(b(x)) + n3(b(-x)) + n4(c(x)), "
            "a, b, c Conv2d modules and n1..n4 BatchNorm2d modules, in eval mode")
    expect(not isinstance(res["out"], str), f"{what}: the fused module did not return a tensor: {res['out']}")
    expect_close(res["out"], want, f"{what}: fused(x) vs model(x), x of shape {tuple(x.shape)} (a folded conv kept "
                 f"under the name of a conv that forward calls twice changes both calls)", atol=1e-9, rtol=1e-7)
    expect(res["bn_left"] == ["n1", "n2", "n3"],
           f"{what}: BatchNorm calls left {res['bn_left']}, expected ['n1', 'n2', 'n3'] (a and b are called twice, "
           f"so their pairs stay; only c, called once, is folded with n4)")


def test_convs_sharing_one_weight_each_folded(student, gen):
    """two convs sharing one weight Parameter (TridentNet's branches), each followed by its own BatchNorm2d: both
    pairs are folded and the fused model computes what the model computes (each folded conv replaces its module with
    weights of its own; folding into the shared weight in place would scale the other branch too)"""
    res, want, x = _special(student, gen, "trident")
    what = ("fuse_conv_bn(model) for model.forward(x) = n1(a(x)) + n2(b(x)) * 0.5, a = Conv2d(3, 3, 3, padding=1) and "
            "b = Conv2d(3, 3, 3, padding=2, dilation=2, bias=False) with b.weight = a.weight (one Parameter), n1, n2 "
            "BatchNorm2d, in eval mode")
    expect(not isinstance(res["out"], str), f"{what}: the fused module did not return a tensor: {res['out']}")
    expect_close(res["out"], want, f"{what}: fused(x) vs model(x), x of shape {tuple(x.shape)}", atol=1e-9, rtol=1e-7)
    expect(res["bn_left"] == [], f"{what}: BatchNorm calls left {res['bn_left']}, expected none (a and b are "
                                 f"different modules, each called once, each output read only by its BatchNorm)")


def test_folds_with_own_arithmetic(student, gen):
    """fuse_conv_bn folds with the notebook's fold_conv_bn: torch.nn.utils.fusion's functions are not entered
    (recorded in the worker, under any name)"""
    desc = [dict(kind="conv", cin=3, cout=4, k=3, groups=1, dilation=1, bias=False, bn=True),
            dict(kind="relu"),
            dict(kind="conv", cin=4, cout=4, k=1, groups=2, dilation=1, bias=True, bn=True)]
    model, ref, res, x, want = _run(student, desc, gen, 3, watch_library=True)
    label = J.fmt_desc(desc)
    _check_fused(model, ref, res, x, want, label)
    expect(not res["library_entered"], f"fuse_conv_bn(model) for model = {label} in eval mode entered "
                                       f"torch.nn.utils.fusion's {res['library_entered']}; the task says to fold each "
                                       f"pair \"(use your fold_conv_bn)\", whose arithmetic you write yourself")


def test_fused_model_on_the_model_device(student, gen):
    """the fused GraphModule's parameters and buffers stay on the model's device (the model on the meta device, the
    grader's stand-in for a GPU; a folded conv moved to another device, such as the notebook's DEVICE, no longer
    runs on the model's inputs)"""
    desc = [dict(kind="conv", cin=3, cout=4, k=3, groups=1, dilation=1, bias=True, bn=True), dict(kind="relu"),
            dict(kind="conv", cin=4, cout=4, k=1, groups=2, dilation=1, bias=False, bn=True),
            dict(kind="skip", c=4, k=3, bias=True)]
    model = P.ConvNet(desc).double()
    state = J.randomize(model, gen)
    res = student.call("fuse_device", desc=desc, state=state)
    what = (f"fuse_conv_bn(model) for model = {J.fmt_desc(desc)} in eval mode, on the meta device (the grader's "
            f"stand-in for a GPU)")
    expect(res["error"] is None, f"{what}: raised {res['error']} (the task: the fused model keeps the model's "
                                 f"device and dtype; fold each pair with your fold_conv_bn, which keeps conv's "
                                 f"device)")
    elsewhere = {k: v for k, v in res["where"].items() if v != "meta"}
    expect(not elsewhere, f"{what}: expected every parameter and buffer of the fused GraphModule on the model's "
                          f"device, found {dict(list(elsewhere.items())[:4])} (the task: the fused model keeps the "
                          f"model's device and dtype)")
    expect(any(k.endswith("weight") for k in res["where"]), f"{what}: the fused GraphModule has no parameters "
                                                            f"left: {sorted(res['where'])}")


def test_dead_in_place_op_after_pair_kept(student, gen):
    """an in-place y.relu_() after a foldable pair, whose result forward never uses, still runs in the fused model
    (it changes y; dead-code elimination would drop the node and with it the ReLU)"""
    res, want, x = _special(student, gen, "dead_inplace")
    what = ("fuse_conv_bn(model) for model.forward(x): y = n1(a(x)); y.relu_(); return y * 2.0 - 0.5, with a "
            "Conv2d(3, 3, 3, padding=1) and n1 a BatchNorm2d, in eval mode")
    expect(not isinstance(res["out"], str), f"{what}: the fused module did not return a tensor: {res['out']}")
    expect(not res["lint"]["raised"], f"{what}: the fused graph does not lint: {res['lint']['message'][:200]}")
    expect_close(res["out"], want, f"{what}: fused(x) vs model(x), x of shape {tuple(x.shape)}; the task: the pair is "
                 f"folded, nothing else of the model changes (the y.relu_() node has no users but changes y: do not "
                 f"eliminate it as dead code)", atol=1e-9, rtol=1e-7)
    expect(res["bn_left"] == [], f"{what}: BatchNorm calls left {res['bn_left']}, expected none (a's output is read "
                                 f"only by n1)")


def test_split_devices_each_folded_conv_stays(student, gen):
    """a model split over two devices (its first layers on the CPU, the rest on the meta device, the grader's stand-in
    for a second GPU): each folded conv stays on the device its conv was on"""
    desc = [dict(kind="conv", cin=2, cout=3, k=3, groups=1, dilation=1, bias=True, bn=True), dict(kind="relu"),
            dict(kind="conv", cin=3, cout=4, k=1, groups=1, dilation=1, bias=False, bn=True), dict(kind="relu"),
            dict(kind="conv", cin=4, cout=4, k=3, groups=2, dilation=1, bias=True, bn=True)]
    state = J.randomize(P.ConvNet(desc).double(), gen)
    split = 3  # layers: 0 conv, 1 bn, 2 relu | 3 conv, 4 bn, 5 relu, 6 conv, 7 bn
    res = student.call("fuse_split_devices", desc=desc, state=state, split=split)
    what = (f"fuse_conv_bn(model) for model = {J.fmt_desc(desc)} in eval mode, model.layers[:{split}] on the CPU and "
            f"model.layers[{split}:] on the meta device")
    expect(res["error"] is None, f"{what}: raised {res['error']} (fold each pair with your fold_conv_bn, which keeps "
                                 f"conv's device)")
    model = P.ConvNet(desc)
    for name, mod in model.named_modules():
        if not isinstance(mod, nn.Conv2d):
            continue
        want = "cpu" if int(name.split(".")[1]) < split else "meta"
        got = res["where"].get(name)
        expect(got is not None, f"{what}: the fused GraphModule has no conv '{name}' (keep each fused conv under the "
                                f"original conv's qualified name)")
        moved = {k: v for k, v in got.items() if v != want}
        expect(not moved, f"{what}: conv '{name}' was on {want}, but after fusion its {moved} (the task: \"The fused "
                          f"model keeps the model's device and dtype (a folded conv stays where the conv was)\"; "
                          f"not the device of the model's first parameter)")


def test_graphmodule_input_left_unchanged(student, gen):
    """model given as an fx.GraphModule (fx.symbolic_trace of a model): a new GraphModule is returned and the given
    one keeps its graph, its modules and its output"""
    desc = [dict(kind="conv", cin=3, cout=4, k=3, groups=1, dilation=1, bias=True, bn=True), dict(kind="relu"),
            dict(kind="conv", cin=4, cout=4, k=1, groups=2, dilation=1, bias=False, bn=True)]
    model = P.ConvNet(desc).double()
    state = J.randomize(model, gen)
    model.eval()
    x = torch.randn(2, 3, 6, 5, generator=gen, dtype=torch.float64)
    with torch.no_grad():
        want = model(x)
    res = student.call("fuse_graphmodule", desc=desc, state=state, x=x)
    what = f"fuse_conv_bn(gm) for gm = fx.symbolic_trace(model), model = {J.fmt_desc(desc)} in eval mode"
    expect(not res["same_object"], f"{what}: returned the GraphModule it was given; the task: \"returning a new "
                                   f"`fx.GraphModule`\" and \"Do not modify `model`\" (a GraphModule is a model too)")
    expect(not res["graph_changed"], f"{what}: the given GraphModule's graph changed (its BatchNorm nodes are gone?); "
                                     f"the task: \"Do not modify `model`\" (trace a copy of it)")
    expect(not res["modules_changed"], f"{what}: the given GraphModule's submodules {res['modules_changed']} were "
                                       f"replaced or removed; the task: \"Do not modify `model`\"")
    expect(res["state_same"], f"{what}: the given GraphModule's parameters or buffers changed (do not modify model)")
    expect_close(res["in_after"], want, f"{what}: the given GraphModule's output afterwards (it must not change)",
                 atol=1e-12, rtol=1e-10)
    expect(not isinstance(res["out"], str), f"{what}: the fused module did not return a tensor: {res['out']}")
    expect_close(res["out"], want, f"{what}: fused(x) vs model(x)", atol=1e-9, rtol=1e-7)


def test_fused_again_after_the_weights_change(student, gen):
    """the same model fused, then its weights and BatchNorm statistics change (another training step) and it is fused
    again: the second GraphModule is new and folds the model as it is now"""
    desc = [dict(kind="conv", cin=2, cout=3, k=3, groups=1, dilation=1, bias=True, bn=True), dict(kind="relu"),
            dict(kind="conv", cin=3, cout=3, k=1, groups=1, dilation=1, bias=False, bn=True)]
    model = P.ConvNet(desc).double()
    state = J.randomize(model, gen)
    state2 = J.randomize(model, gen)
    model.eval()
    x = torch.randn(2, 2, 5, 6, generator=gen, dtype=torch.float64)
    with torch.no_grad():
        want2 = model(x)  # the model with state2
        model.load_state_dict(state)
        want1 = model(x)
    res = student.call("fuse_twice", desc=desc, state=state, state2=state2, x=x)
    what = (f"fuse_conv_bn(model) for model = {J.fmt_desc(desc)} in eval mode, then model.load_state_dict(new "
            f"weights and statistics) and fuse_conv_bn(model) again")
    for key in ("out1", "out2"):
        expect(not isinstance(res[key], str), f"{what}: a fused module did not return a tensor: {res[key]}")
    expect_close(res["out1"], want1, f"{what}: the first fused(x) vs model(x) before the change", atol=1e-9,
                 rtol=1e-7)
    expect(not res["same_object"], f"{what}: the second call returned the first call's GraphModule; the task: "
                                   f"\"returning a new `fx.GraphModule`\" folding the model as it is at that call "
                                   f"(keep nothing from an earlier call)")
    expect_close(res["out2"], want2, f"{what}: the second fused(x) vs model(x) with the new weights (the folded "
                 f"convs must hold bn(conv) of the model as it is when fuse_conv_bn is called)", atol=1e-9, rtol=1e-7)
