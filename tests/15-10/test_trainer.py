"""Hidden checks for the Trainer loop: lifecycle, accumulation, clipping, logging, precision (15-10, judge side)."""
import math

import numpy as np
import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F

from course.judge.expect import expect, expect_close, fail

pytestmark = pytest.mark.task("trainer")
f64 = torch.float64


def expected_events(n, b, accum, epochs, with_val, max_steps):
    nb = math.ceil(n / b)
    ev, step = [["on_fit_start", None]], 0
    for _ in range(epochs):
        ev.append(["on_epoch_start", None])
        stopped = False
        for i in range(nb):
            ev += [["on_batch_start", i], ["on_after_backward", None]]
            if (i + 1) % accum == 0 or i + 1 == nb:
                ev.append(["on_before_optimizer_step", None])
                step += 1
            ev.append(["on_batch_end", i])
            if max_steps is not None and step >= max_steps:
                stopped = True
                break
        if stopped:
            break
        if with_val:
            ev.append(["on_validation_end", None])
        ev.append(["on_epoch_end", None])
    ev.append(["on_fit_end", None])
    return ev, step


def fmt(e):
    return e[0] + (f"(batch_idx={e[1]})" if e[1] is not None else "")


def draw_config(gen, case):
    """A configuration of the kind the case names, with its sizes drawn per student."""
    pick = lambda lo, hi: int(torch.randint(lo, hi + 1, (1,), generator=gen))  # noqa: E731
    b = pick(2, 3)
    nb, accum, epochs, with_val, max_steps = {
        "plain_val": lambda: (pick(3, 5), 1, pick(1, 3), True, None),
        "accum3": lambda: (3 * pick(1, 2), 3, pick(1, 2), False, None),
        "accum_flush": lambda: (2 * pick(1, 3) + 1, 2, pick(1, 3), True, None),
        "max_steps_mid_epoch": lambda: (2 * pick(2, 3), 2, 3, True, None)}[case]()
    if case == "max_steps_mid_epoch":  # stop inside an epoch: steps per epoch are nb // 2
        max_steps = pick(0, 1) * (nb // 2) + pick(1, nb // 2 - 1)
    return (nb - 1) * b + pick(1, b), b, accum, epochs, with_val, max_steps


@pytest.mark.parametrize("case", ["plain_val", "accum3", "accum_flush", "max_steps_mid_epoch"])
def test_lifecycle_order(student, gen, case):
    """callbacks fire in the documented order and number"""
    n, b, accum, epochs, with_val, max_steps = draw_config(gen, case)
    r = student.call("lifecycle", n=n, batch_size=b, accum=accum, epochs=epochs, with_val=with_val,
                     max_steps=max_steps)
    want, steps = expected_events(n, b, accum, epochs, with_val, max_steps)
    got = [list(e) for e in r["events"]]
    what = (f"Trainer(..., max_epochs={epochs}, accum_steps={accum}, max_steps={max_steps}"
            f"{', val_loader=...' if with_val else ''}).fit() with {n} samples in batches of {b}")
    if got != want:
        i = next((k for k, (a, c) in enumerate(zip(got, want)) if a != c), min(len(got), len(want)))
        ctx = lambda seq: ", ".join(fmt(e) for e in seq[max(0, i - 2): i + 3]) or "(nothing)"
        fail(f"{what}: hook #{i} differs from the documented lifecycle. Expected ... {ctx(want)} ...; "
             f"your Trainer fired ... {ctx(got)} ... ({len(want)} hooks expected, {len(got)} fired)")
    expect(r["global_step"] == steps and r["history_len"] == steps,
           f"{what}: expected global_step == len(history) == {steps}, got {r['global_step']} and {r['history_len']}")


@pytest.mark.parametrize("case", ["max_steps_0", "resumed_at_max"])
def test_max_steps_already_reached(student, gen, case):
    """fit() with max_steps already reached (max_steps=0, or global_step == max_steps as after loading the final
    checkpoint) takes no optimizer step"""
    pick = lambda lo, hi: int(torch.randint(lo, hi + 1, (1,), generator=gen))  # noqa: E731
    b, nb = 2, pick(2, 4)
    start = 0 if case == "max_steps_0" else pick(1, 6)
    r = student.call("lifecycle", n=nb * b, batch_size=b, accum=1, epochs=2, with_val=True, max_steps=start,
                     start_step=start)
    what = (f"Trainer(..., max_epochs=2, max_steps={start}, val_loader=...) on {nb * b} samples in batches of {b}, "
            + ("then fit()" if start == 0 else f"trainer.global_step set to {start} (as after loading the checkpoint "
                                               f"of the run's last step), then fit()"))
    names = [e[0] for e in r["events"]]
    steps = names.count("on_before_optimizer_step")
    expect(steps == 0 and r["global_step"] == start and r["history_len"] == 0 and not r["weights_moved"],
           f"{what}: max_steps is already reached, so fit() must take no optimizer step (the run stops right after "
           f"the step that reaches max_steps); got {steps} optimizer step(s), global_step {r['global_step']}, "
           f"{r['history_len']} history row(s), weights {'changed' if r['weights_moved'] else 'unchanged'}")
    expect(names[:1] == ["on_fit_start"] and names[-1:] == ["on_fit_end"] and names.count("on_fit_start") == 1
           and names.count("on_fit_end") == 1,
           f"{what}: fit() should still fire on_fit_start and on_fit_end once each; fired {names}")


def test_should_stop_in_a_batch_finishes_the_epoch(student, gen):
    """should_stop set by a callback in on_batch_end: the epoch still runs to its end (validation, on_epoch_end),
    then fit stops"""
    pick = lambda lo, hi: int(torch.randint(lo, hi + 1, (1,), generator=gen))  # noqa: E731
    b, nb, epochs = 2, pick(3, 5), 3
    epoch = pick(0, 1)
    at = epoch * nb + pick(0, nb - 2)  # never the last batch of its epoch
    r = student.call("lifecycle", n=nb * b, batch_size=b, accum=1, epochs=epochs, with_val=True, max_steps=None,
                     stop_at_batch=at)
    want, steps = expected_events(nb * b, b, 1, epoch + 1, True, None)
    got = [list(e) for e in r["events"]]
    what = (f"Trainer(..., max_epochs={epochs}, val_loader=...) on {nb * b} samples in batches of {b} ({nb} batches "
            f"an epoch), a callback that sets trainer.should_stop = True in on_batch_end of batch {at - epoch * nb} "
            f"of epoch {epoch}")
    if got != want:
        i = next((k for k, (a, c) in enumerate(zip(got, want)) if a != c), min(len(got), len(want)))
        ctx = lambda seq: ", ".join(fmt(e) for e in seq[max(0, i - 2): i + 3]) or "(nothing)"  # noqa: E731
        fail(f"{what}: the lifecycle checks should_stop only after on_epoch_end, so epoch {epoch} runs to its end, "
             f"validates and fires on_epoch_end, then fit stops. Hook #{i} differs: expected ... {ctx(want)} ...; "
             f"your Trainer fired ... {ctx(got)} ... ({len(want)} hooks expected, {len(got)} fired)")
    expect(r["global_step"] == steps, f"{what}: expected global_step {steps}, got {r['global_step']}")


def make_net(d_in, d_out):
    return nn.Sequential(nn.Linear(d_in, 5), nn.Tanh(), nn.Linear(5, d_out)).double()


def reference_run(init, X, Y, b, accum, epochs, max_norm, lr, gamma, max_steps, unfreeze_after=None):
    model = make_net(X.shape[1], Y.shape[1])
    model.load_state_dict(init)
    if unfreeze_after is not None:  # the last layer frozen and outside the optimizer until then
        model[2].requires_grad_(False)
    opt = torch.optim.AdamW(model.parameters() if unfreeze_after is None else model[0].parameters(), lr=lr,
                            weight_decay=0.05)
    sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=gamma) if gamma is not None else None
    batches = [(X[i:i + b], Y[i:i + b]) for i in range(0, len(X), b)]
    hist, step = [], 0
    for epoch in range(epochs):
        for start in range(0, len(batches), accum):
            losses = []
            for x, y in batches[start:start + accum]:
                loss = F.mse_loss(model(x), y)
                (loss / accum).backward()
                losses.append(float(loss.detach()))
            params = [p for group in opt.param_groups for p in group["params"]]
            if max_norm is not None:
                norm = float(torch.nn.utils.clip_grad_norm_(params, max_norm))
            else:
                norm = float(torch.nn.utils.get_total_norm([p.grad for p in params]))
            cur_lr = opt.param_groups[0]["lr"]
            opt.step()
            opt.zero_grad()
            if sched is not None:
                sched.step()
            step += 1
            hist.append({"step": step, "epoch": epoch, "loss": sum(losses) / len(losses), "lr": cur_lr,
                         "grad_norm": norm})
            if max_steps is not None and step >= max_steps:
                return hist, model.state_dict()
        if epoch == unfreeze_after:
            model[2].requires_grad_(True)
            opt.add_param_group({"params": list(model[2].parameters())})
    return hist, model.state_dict()


def run_both(student, gen, n, b, accum, epochs, max_norm, gamma, max_steps=None, lr=0.05, scaler_scale=None,
             dict_batches=False, unfreeze_after=None):
    X = torch.randn(n, 3, generator=gen, dtype=f64)
    Y = torch.randn(n, 2, generator=gen, dtype=f64)
    torch.manual_seed(int(torch.randint(0, 2**31 - 1, (1,), generator=gen)))
    init = {k: v.clone() for k, v in make_net(3, 2).state_dict().items()}
    got = student.call("explicit_run", init=init, X=X, Y=Y, batch_size=b, accum=accum, epochs=epochs,
                       max_norm=max_norm, lr=lr, gamma=gamma, max_steps=max_steps, scaler_scale=scaler_scale,
                       dict_batches=dict_batches, unfreeze_after=unfreeze_after)
    want_hist, want_params = reference_run(init, X, Y, b, accum, epochs, max_norm, lr, gamma, max_steps,
                                           unfreeze_after)
    return got, want_hist, want_params


def test_accumulation_large_batch_weights(student, gen):
    """accumulated gradients over 4 micro-batches equal the gradient of the full batch (weights after one step)"""
    n, b, accum = 12, 3, 4
    X = torch.randn(n, 3, generator=gen, dtype=f64)
    Y = torch.randn(n, 2, generator=gen, dtype=f64)
    torch.manual_seed(int(torch.randint(0, 2**31 - 1, (1,), generator=gen)))
    init = {k: v.clone() for k, v in make_net(3, 2).state_dict().items()}
    got = student.call("explicit_run", init=init, X=X, Y=Y, batch_size=b, accum=accum, epochs=1,
                       max_norm=None, lr=0.05, gamma=None, max_steps=1)
    model = make_net(3, 2)
    model.load_state_dict(init)
    opt = torch.optim.AdamW(model.parameters(), lr=0.05, weight_decay=0.05)
    loss = F.mse_loss(model(X), Y)
    loss.backward()
    norm = float(torch.nn.utils.get_total_norm([p.grad for p in model.parameters()]))
    opt.step()
    what = "Trainer(..., accum_steps=4) on 12 samples in batches of 3, one AdamW step"
    for k, v in model.state_dict().items():
        expect_close(got["params"][k], v, f"{what}: weights '{k}' vs one step on the full batch of 12",
                     atol=1e-10, rtol=1e-8)
    expect(len(got["history"]) == 1, f"{what}: expected one row in history, got {len(got['history'])}")
    row = got["history"][0]
    expect(abs(row["grad_norm"] - norm) <= 1e-9 * max(1.0, norm),
           f"{what}: logged grad_norm should be the full-batch gradient norm {norm:.8g}, got {row['grad_norm']:.8g}")
    expect(abs(row["loss"] - float(loss.detach())) <= 1e-9,
           f"{what}: logged loss should be the mean of the 4 batch losses = full-batch loss {float(loss.detach()):.8g}, "
           f"got {row['loss']:.8g}")


@pytest.mark.parametrize("max_norm", [0.05, None], ids=["clipped", "unclipped"])
def test_logging_and_clipping_match_explicit_loop(student, gen, max_norm):
    """loss, lr and grad-norm logs and final weights match an explicit AdamW+ExponentialLR loop"""
    got, want_hist, want_params = run_both(student, gen, 20, 4, 2, 2, max_norm, 0.7, dict_batches=True)
    what = (f"Trainer(AdamW, ExponentialLR(gamma=0.7), accum_steps=2, max_grad_norm={max_norm}, max_epochs=2) "
            f"on 20 samples in batches of 4 (5 batches: the last group of each epoch has one batch; each batch a dict "
            f"{{'x', 'y', 'idx'}} that only loss_fn reads)")
    expect(len(got["history"]) == len(want_hist),
           f"{what}: expected {len(want_hist)} rows in history (one per optimizer step), got {len(got['history'])}")
    for g, w in zip(got["history"], want_hist):
        for key, tol in (("step", 0), ("epoch", 0), ("lr", 1e-12), ("loss", 1e-9), ("grad_norm", 1e-8)):
            if not abs(g[key] - w[key]) <= tol * max(1.0, abs(w[key])):  # NaN logs differ too
                fail(f"{what}: history row for step {w['step']}: '{key}' should be {w[key]:.10g}, got {g[key]:.10g}"
                     + (" (the norm BEFORE clipping, of the unscaled gradients)" if key == "grad_norm" else "")
                     + (" (the lr used by this step, read before scheduler.step())" if key == "lr" else ""))
    for k, v in want_params.items():
        expect_close(got["params"][k], v, f"{what}: final weights '{k}'", atol=1e-9, rtol=1e-7)


def test_max_grad_norm_zero_clips(student, gen):
    """max_grad_norm=0.0 is not None: every step clips the gradients to zero (logs and weights as torch's loop)"""
    got, want_hist, want_params = run_both(student, gen, 12, 4, 1, 1, 0.0, None)
    what = ("Trainer(AdamW(weight_decay=0.05), max_grad_norm=0.0) on 12 samples in batches of 4 (clip with "
            "clip_grad_norm whenever max_grad_norm is not None: 0.0 zeroes every gradient, only weight decay moves "
            "the weights)")
    expect(len(got["history"]) == len(want_hist),
           f"{what}: expected {len(want_hist)} rows in history, got {len(got['history'])}")
    for g, w in zip(got["history"], want_hist):
        expect(abs(g["grad_norm"] - w["grad_norm"]) <= 1e-8 * max(1.0, w["grad_norm"]),
               f"{what}: history row for step {w['step']}: grad_norm (before clipping) should be "
               f"{w['grad_norm']:.10g}, got {g['grad_norm']:.10g}")
    for k, v in want_params.items():
        expect_close(got["params"][k], v, f"{what}: final weights '{k}' (torch.nn.utils.clip_grad_norm_(params, "
                                          f"0.0) before each AdamW step)", atol=1e-9, rtol=1e-7)


def test_param_group_added_during_fit(student, gen):
    """a parameter group added during fit (a callback unfreezing a layer in on_epoch_end) is measured and clipped
    from the next step on: the optimizer's param_groups are read at every step"""
    got, want_hist, want_params = run_both(student, gen, 16, 4, 2, 2, 0.05, 0.7, unfreeze_after=0)
    what = ("Trainer(AdamW over the first layer only, ExponentialLR(gamma=0.7), accum_steps=2, max_grad_norm=0.05, "
            "max_epochs=2) on 16 samples in batches of 4, with a callback that unfreezes the last layer and calls "
            "optimizer.add_param_group for it in on_epoch_end of epoch 0")
    expect(len(got["history"]) == len(want_hist),
           f"{what}: expected {len(want_hist)} rows in history, got {len(got['history'])}")
    for g, w in zip(got["history"], want_hist):
        if not abs(g["grad_norm"] - w["grad_norm"]) <= 1e-8 * max(1.0, w["grad_norm"]):
            fail(f"{what}: history row for step {w['step']} (epoch {w['epoch']}): grad_norm should be "
                 f"{w['grad_norm']:.10g} (every parameter of optimizer.param_groups as they are at this step), got "
                 f"{g['grad_norm']:.10g}")
    for k, v in want_params.items():
        expect_close(got["params"][k], v, f"{what}: final weights '{k}' (the new group's gradients are clipped "
                                          f"together with the others)", atol=1e-9, rtol=1e-7)


def autocast_losses(seed, dtype):
    """The judge's own run of the probe's model and data (seed): SGD, batches of 4, the forward and the loss
    under torch.autocast('cpu', dtype); the logged losses."""
    torch.manual_seed(seed)
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    X, Y = torch.randn(8, 4), torch.randint(0, 2, (8,))
    out = []
    for i in range(0, 8, 4):
        with torch.autocast("cpu", dtype=dtype):
            loss = F.cross_entropy(model(X[i:i + 4]), Y[i:i + 4])
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
        out.append(float(loss.detach()))
    return out


def expect_autocast(student, gen, precision, dtype):
    """One CPU run at ``precision``: the forward's output dtype, float32 weights, the judge's logged losses."""
    seed = int(torch.randint(0, 2**31 - 1, (1,), generator=gen))
    r = student.call("precision_run", precision=precision, device="cpu", seed=seed)
    expect(r["out"] and all(d == f"torch.{dtype}" for d in r["out"]),
           f"Trainer(..., precision='{precision}') on CPU: the model's output inside loss_fn should be "
           f"torch.{dtype} (torch.autocast('cpu', dtype=torch.{dtype})), got {r['out']}")
    expect(r["val_out"] and all(d == f"torch.{dtype}" for d in r["val_out"]),
           f"Trainer(..., precision='{precision}', val_loader=...) on CPU: validate() should run the forward under "
           f"the same autocast as training (torch.{dtype}), the model's outputs there were {r['val_out']}")
    expect(r["final_param_dtypes"] == ["torch.float32"],
           f"Trainer(..., precision='{precision}'): parameters must stay float32, got {r['final_param_dtypes']}")
    expect(r["steps"] == 2 and all(math.isfinite(x) for x in r["losses"]),
           f"Trainer(..., precision='{precision}') on CPU: expected 2 finite logged losses, got {r['losses']}")
    want = autocast_losses(seed, getattr(torch, dtype))
    expect(len(r["losses"]) == len(want) and all(abs(g - w) <= 1e-4 * max(1.0, abs(w)) for g, w in zip(r["losses"], want)),
           f"Trainer(..., precision='{precision}') on CPU: logged losses {r['losses']}, the judge's own autocast "
           f"loop on the same model and data gives {want}")


def test_bf16_autocast_on_cpu(student, gen):
    """precision='bf16' runs the forward under bfloat16 autocast, keeps float32 weights; '32' does not autocast"""
    expect_autocast(student, gen, "bf16", "bfloat16")
    r32 = student.call("precision_run", precision="32", device="cpu")
    expect(all(d == "torch.float32" for d in r32["out"]),
           f"Trainer(..., precision='32'): the model's output should stay float32 (no autocast), got {r32['out']}")


def test_fp16_autocast_on_cpu(student, gen):
    """precision='fp16' runs the forward under float16 autocast (here on CPU, with a disabled scaler)"""
    expect_autocast(student, gen, "fp16", "float16")


def test_early_stopping_ends_the_run(student, gen):
    """when a callback sets trainer.should_stop in on_validation_end, fit ends after that epoch"""
    k = int(torch.randint(1, 6, (1,), generator=gen))  # the validation that stops the run, drawn per student
    r = student.call("early_stop_run", patience=k - 1, epochs=10)
    expect(len(r["val_history"]) == k and r["val_ends"] == k and r["epoch_ends"] == k,
           f"Trainer(..., val_loader=..., max_epochs=10) with lr=0 and a callback that sets "
           f"trainer.should_stop = True in on_validation_end #{k}: "
           f"expected {k} validations and {k} epochs (fit stops after the epoch that set should_stop), got "
           f"{r['val_ends']} on_validation_end, {r['epoch_ends']} on_epoch_end, val_history {r['val_history']}")
    expect(len(set(round(v, 12) for v in r["val_history"])) == 1,
           f"with lr=0 every validation loss should be identical, got {r['val_history']}")


@pytest.mark.gpu
def test_cuda_device_and_fp16(student):
    """on CUDA: model and batches on the GPU, fp16 autocast and an enabled GradScaler"""
    r = student.call("precision_run", precision="fp16", device="cuda")
    expect(r["param_device"] == "cuda" and all(d == "cuda" for d in r["x_device"]),
           f"Trainer(..., device='cuda'): model on {r['param_device']}, batches on {r['x_device']}")
    expect(all(d == "torch.float16" for d in r["out"]),
           f"Trainer(..., precision='fp16', device='cuda'): outputs should be float16, got {r['out']}")
    expect(r["scaler_enabled"], "Trainer(..., precision='fp16', device='cuda') should create an enabled GradScaler")
    expect(r["final_param_dtypes"] == ["torch.float32"], f"parameters must stay float32, got {r['final_param_dtypes']}")


def expected_resumed_events(n, b, accum, epochs, epoch, start, with_val):
    nb = math.ceil(n / b)
    ev, step = [["on_fit_start", None]], 0
    for e in range(epoch, epochs):
        first = start if e == epoch else 0
        if first == 0:
            ev.append(["on_epoch_start", None])
        for i in range(first, nb):
            ev += [["on_batch_start", i], ["on_after_backward", None]]
            if (i + 1) % accum == 0 or i + 1 == nb:
                ev.append(["on_before_optimizer_step", None])
                step += 1
            ev.append(["on_batch_end", i])
        if with_val:
            ev.append(["on_validation_end", None])
        ev.append(["on_epoch_end", None])
    ev.append(["on_fit_end", None])
    return ev, step


@pytest.mark.parametrize("case", ["mid_group", "group_boundary"])
def test_lifecycle_resumed_mid_epoch(student, gen, case):
    """fit() continuing an epoch in the middle: no on_epoch_start for it, batch_idx and groups continue"""
    pick = lambda lo, hi: int(torch.randint(lo, hi + 1, (1,), generator=gen))  # noqa: E731
    b, accum, nb = 2, 2, pick(5, 8)
    n, epochs = nb * b, pick(2, 4)
    epoch = pick(0, epochs - 2)
    start = 2 * pick(0, (nb - 2) // 2) + 1 if case == "mid_group" else 2 * pick(1, (nb - 1) // 2)
    r = student.call("lifecycle_resumed", n=n, batch_size=b, accum=accum, epochs=epochs, epoch=epoch,
                     batch_in_epoch=start, with_val=True)
    want, steps = expected_resumed_events(n, b, accum, epochs, epoch, start, True)
    got = [list(e) for e in r["events"]]
    what = (f"Trainer(..., max_epochs={epochs}, accum_steps={accum}, val_loader=...) with trainer.epoch={epoch} and "
            f"trainer.batch_in_epoch={start} (as after loading a checkpoint), {n} samples in batches of {b}, "
            f"a sampler that resumes at batch {start}, then fit()")
    if got != want:
        i = next((k for k, (a, c) in enumerate(zip(got, want)) if a != c), min(len(got), len(want)))
        ctx = lambda seq: ", ".join(fmt(e) for e in seq[max(0, i - 2): i + 3]) or "(nothing)"
        fail(f"{what}: hook #{i} differs from the documented lifecycle. Expected ... {ctx(want)} ...; "
             f"your Trainer fired ... {ctx(got)} ... ({len(want)} hooks expected, {len(got)} fired)")
    expect(r["set_epoch"][:2] == [epoch, epoch + 1],
           f"{what}: sampler.set_epoch should be called with {epoch}, then {epoch + 1} (once at the start of each "
           f"epoch), got calls {r['set_epoch']}")


@pytest.mark.parametrize("max_norm", [0.05, None], ids=["clipped", "unclipped"])
def test_grad_scaler_matches_unscaled(student, gen, max_norm):
    """with an enabled GradScaler: unscale before measuring and clipping; same weights and logs as without"""
    got, want_hist, want_params = run_both(student, gen, 16, 4, 2, 1, max_norm, 0.7, scaler_scale=2.0 ** 12)
    what = (f"Trainer(AdamW, ExponentialLR(gamma=0.7), scaler=GradScaler('cpu', init_scale=2**12), accum_steps=2, "
            f"max_grad_norm={max_norm}) on 16 samples in batches of 4, compared with the same loop without a scaler")
    expect(len(got["history"]) == len(want_hist),
           f"{what}: expected {len(want_hist)} rows in history, got {len(got['history'])}")
    for g, w in zip(got["history"], want_hist):
        if not abs(g["grad_norm"] - w["grad_norm"]) <= 1e-8 * max(1.0, w["grad_norm"]):
            fail(f"{what}: history row for step {w['step']}: grad_norm should be {w['grad_norm']:.10g} (the "
                 f"UNSCALED gradients: call scaler.unscale_(optimizer) before measuring), got {g['grad_norm']:.10g}")
    for k, v in want_params.items():
        expect_close(got["params"][k], v, f"{what}: final weights '{k}' (scaler.unscale_ before measuring and clipping)",
                     atol=1e-9, rtol=1e-7)


def scaled_reference_run(init, X, Y, b, accum, epochs, max_norm, lr, gamma, scale):
    """The judge's loop with GradScaler('cpu', init_scale=scale, growth_interval=10**6): scale, unscale_, clip,
    scaler.step (skipped on inf/nan gradients), update, zero_grad, scheduler.step, one row, at every step."""
    model = make_net(X.shape[1], Y.shape[1])
    model.load_state_dict(init)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.05)
    sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=gamma)
    scaler = torch.amp.GradScaler("cpu", init_scale=scale, growth_interval=10**6)
    batches = [(X[i:i + b], Y[i:i + b]) for i in range(0, len(X), b)]
    hist, step = [], 0
    for epoch in range(epochs):
        for start in range(0, len(batches), accum):
            losses = []
            for x, y in batches[start:start + accum]:
                loss = F.mse_loss(model(x), y)
                scaler.scale(loss / accum).backward()
                losses.append(float(loss.detach()))
            scaler.unscale_(opt)
            params = [p for group in opt.param_groups for p in group["params"]]
            norm = float(torch.nn.utils.clip_grad_norm_(params, max_norm))
            cur_lr = opt.param_groups[0]["lr"]
            scaler.step(opt)
            scaler.update()
            opt.zero_grad()
            sched.step()
            step += 1
            hist.append({"step": step, "epoch": epoch, "loss": sum(losses) / len(losses), "lr": cur_lr,
                         "grad_norm": norm})
    return hist, model.state_dict()


def test_step_skipped_by_the_scaler_still_counts(student, gen):
    """a step the GradScaler skips (inf gradients) is still an optimizer step of the lifecycle: the scheduler
    steps, global_step counts it, a row is logged (same logs and weights as the judge's loop)"""
    n, b, accum, epochs, scale = 16, 4, 1, 2, 2.0 ** 12
    X = torch.randn(n, 3, generator=gen, dtype=f64)
    Y = torch.randn(n, 2, generator=gen, dtype=f64)
    bad = int(torch.randint(b, n, (1,), generator=gen))  # never in the first step's batch
    Y[bad, 0] = math.inf  # that batch's loss and gradients are inf: the scaler skips its step, every epoch
    torch.manual_seed(int(torch.randint(0, 2**31 - 1, (1,), generator=gen)))
    init = {k: v.clone() for k, v in make_net(3, 2).state_dict().items()}
    got = student.call("explicit_run", init=init, X=X, Y=Y, batch_size=b, accum=accum, epochs=epochs, max_norm=0.5,
                       lr=0.05, gamma=0.7, max_steps=None, scaler_scale=scale)
    want_hist, want_params = scaled_reference_run(init, X, Y, b, accum, epochs, 0.5, 0.05, 0.7, scale)
    what = (f"Trainer(AdamW, ExponentialLR(gamma=0.7), scaler=GradScaler('cpu', init_scale=2**12), max_grad_norm=0.5, "
            f"max_epochs={epochs}) on {n} samples in batches of {b}, sample {bad} with an inf target (its batch's "
            f"gradients are inf: scaler.step skips that optimizer step and scaler.update halves the scale)")
    same = lambda g, w, tol: g == w or abs(g - w) <= tol * max(1.0, abs(w)) or (math.isnan(g) and math.isnan(w))  # noqa: E731
    expect(len(got["history"]) == len(want_hist),
           f"{what}: expected {len(want_hist)} rows in history (a skipped step is still a step), got "
           f"{len(got['history'])}")
    expect(got["global_step"] == len(want_hist), f"{what}: expected global_step {len(want_hist)}, got "
                                                 f"{got['global_step']}")
    for g, w in zip(got["history"], want_hist):
        for key, tol in (("step", 0), ("epoch", 0), ("lr", 1e-12), ("loss", 1e-9), ("grad_norm", 1e-8)):
            if not same(g[key], w[key], tol):
                fail(f"{what}: history row for step {w['step']}: '{key}' should be {w[key]:.10g}, got {g[key]:.10g}"
                     + (" (the scheduler is stepped once per optimizer step, a skipped one included)"
                        if key == "lr" else ""))
    for k, v in want_params.items():
        expect_close(got["params"][k], v, f"{what}: final weights '{k}'", atol=1e-9, rtol=1e-7)


def _validation_setup(gen, n, n_val):
    """n training and n_val validation samples (3 features, 1 target) and a float64 model with dropout, seeded from
    gen; its initial state_dict for the probe."""
    X = torch.randn(n, 3, generator=gen, dtype=f64)
    Y = torch.randn(n, 1, generator=gen, dtype=f64)
    Xv = torch.randn(n_val, 3, generator=gen, dtype=f64)
    Yv = torch.randn(n_val, 1, generator=gen, dtype=f64)
    torch.manual_seed(int(torch.randint(0, 2**31 - 1, (1,), generator=gen)))
    net = nn.Sequential(nn.Linear(3, 6), nn.Dropout(0.5), nn.Linear(6, 1)).double()
    return X, Y, Xv, Yv, net, {k: v.clone() for k, v in net.state_dict().items()}


def test_validation(student, gen):
    """validation: eval() mode, no grad, plain mean of the batch losses, val_history/metrics, then train() again"""
    X, Y, Xv, Yv, net, init = _validation_setup(gen, 8, 5)
    r = student.call("validation_run", init=init, X=X, Y=Y, Xv=Xv, Yv=Yv, val_batch=2)
    net.eval()
    with torch.no_grad():
        want = sum(float(F.mse_loss(net(Xv[i:i + 2]), Yv[i:i + 2])) for i in range(0, 5, 2)) / 3
    what = ("Trainer(..., val_loader=DataLoader(5 samples, batch_size=2), max_epochs=2) with lr=0 and a model "
            "with dropout")
    val_calls = [c for c in r["calls"] if c["val"]]
    train_calls = [c for c in r["calls"] if not c["val"]]
    expect(len(val_calls) == 6, f"{what}: expected loss_fn to be called on 3 validation batches per epoch (6), "
                                f"got {len(val_calls)}")
    expect(len(train_calls) == 4, f"{what}: expected loss_fn to be called on 2 training batches per epoch (4), "
                                  f"got {len(train_calls)}")
    expect(all(not c["training"] for c in val_calls),
           f"{what}: the model was in train() mode during validation; call model.eval() first")
    expect(all(not c["grad"] for c in val_calls), f"{what}: validation ran with gradients enabled; use torch.no_grad()")
    expect(not any(c.get("inference", False) for c in val_calls),
           f"{what}: validation ran under torch.inference_mode(); the text says torch.no_grad() (tensors made under "
           f"inference mode, e.g. a cache a model builds on its first forward, cannot be used by autograd later)")
    expect(all(c["training"] for c in train_calls) and r["training_after"],
           f"{what}: after validation the model must be back in train() mode (training batches of epoch 1 saw "
           f"{sorted({c['training'] for c in train_calls})}, after fit: training={r['training_after']})")
    vh = r["val_history"]
    expect(len(vh) == 2 and [row.get("epoch") for row in vh] == [0.0, 1.0] and
           [row.get("step") for row in vh] == [2.0, 4.0],
           f"{what}: val_history should have rows with epoch 0, 1 and step 2, 4; got {vh}")
    for row in vh:
        expect(abs(row.get("val_loss", float("nan")) - want) <= 1e-9,
               f"{what}: val_loss should be the plain mean of the 3 batch losses in eval mode, {want:.10g}; got "
               f"{row.get('val_loss')}")
    expect(abs(r["metrics"].get("val_loss", float("nan")) - want) <= 1e-9,
           f"{what}: trainer.metrics should be {{'val_loss': {want:.10g}}}, got {r['metrics']}")


@pytest.mark.parametrize("val_batch", [8, 2], ids=["one_batch", "three_batches"])
def test_validate_returns_the_mean(student, gen, val_batch):
    """validate() returns {"val_loss": plain mean of the batch losses}, also for a single validation batch"""
    X, Y, Xv, Yv, net, init = _validation_setup(gen, 4, 5)
    r = student.call("validation_run", init=init, X=X, Y=Y, Xv=Xv, Yv=Yv, val_batch=val_batch, call_validate=True)
    net.eval()
    with torch.no_grad():
        losses = [float(F.mse_loss(net(Xv[i:i + val_batch]), Yv[i:i + val_batch])) for i in range(0, 5, val_batch)]
    want = sum(losses) / len(losses)
    what = f"trainer.validate() with val_loader=DataLoader(5 samples, batch_size={val_batch}) after fit() with lr=0"
    got = r["returned"]
    expect(isinstance(got, dict) and set(got) == {"val_loss"} and abs(got["val_loss"] - want) <= 1e-9,
           f"{what}: should return {{'val_loss': {want:.10g}}} (the plain mean of {len(losses)} batch "
           f"loss{'es' if len(losses) > 1 else ''}), got {got}")
    expect(abs(r["metrics"].get("val_loss", float("nan")) - want) <= 1e-9,
           f"{what}: trainer.metrics should be {{'val_loss': {want:.10g}}}, got {r['metrics']}")


def test_validate_switches_back_to_train(student, gen):
    """validate() switches the model back to train() mode afterwards, also when it was in eval() mode before, and
    leaves grad mode (and other global state) as the caller had it"""
    X, Y, Xv, Yv, net, init = _validation_setup(gen, 4, 3)
    r = student.call("validation_run", init=init, X=X, Y=Y, Xv=Xv, Yv=Yv, val_batch=2, call_validate=True,
                     eval_first=True, outer_no_grad=True)
    expect(r["training_after_validate"] is True,
           "after fit(), model.eval(), then trainer.validate(): the model should be in train() mode (validate "
           "'switches back to train()', it does not restore the previous mode); it is in eval() mode")
    changed = r.get("state_changes")
    expect(isinstance(changed, list) and not changed,
           f"trainer.validate() called inside a torch.no_grad() block left global state changed: {changed} (run the "
           f"validation under `with torch.no_grad():`, which restores the caller's grad mode; "
           f"torch.set_grad_enabled(True) afterwards turns it on for a caller who had it off)")


def test_validate_moves_batches_to_device(student, gen):
    """validate() moves every validation batch to trainer.device before loss_fn sees it, as fit() moves the training
    batches (shown on device='meta')"""
    val_batch = int(torch.randint(1, 4, (1,), generator=gen))
    n = val_batch * int(torch.randint(1, 3, (1,), generator=gen)) + int(torch.randint(1, 3, (1,), generator=gen))
    Xv, Yv = torch.randn(n, 3, generator=gen), torch.randn(n, 1, generator=gen)
    r = student.call("validate_on_device", Xv=Xv, Yv=Yv, val_batch=val_batch)
    what = (f"Trainer(..., val_loader=DataLoader({n} CPU samples, batch_size={val_batch}), device='meta').validate() "
            f"(loss_fn records where each batch's x and y are)")
    if "inconclusive" in r:  # the code read a loss value on trainer.device: nothing to judge here
        return
    want = -(-n // val_batch)
    expect("error" not in r, f"{what}: raised {r.get('error')}")
    expect(len(r["seen"]) == want, f"{what}: expected loss_fn to be called on {want} validation batches, got "
                                   f"{len(r['seen'])}")
    off = [i for i, devs in enumerate(r["seen"]) if devs != ["meta", "meta"]]
    expect(not off, f"{what}: validation batches {off} reached loss_fn on {[r['seen'][i] for i in off]} instead of "
                    f"trainer.device ('meta'): 'every batch is moved there too' holds for the validation batches (on a "
                    f"GPU the model and an unmoved batch sit on different devices)")


def test_validate_with_no_batches(student, gen):
    """a validation loader with no batches gives val_loss nan (the mean of no losses) without an error: stored in
    metrics and val_history, passed to on_validation_end and returned"""
    n, b = int(torch.randint(2, 7, (1,), generator=gen)), 2
    X, Y = torch.randn(n, 3, generator=gen, dtype=f64), torch.randn(n, 1, generator=gen, dtype=f64)
    r = student.call("validate_empty", X=X, Y=Y, batch_size=b)
    what = (f"Trainer(..., val_loader=DataLoader(an empty dataset), max_epochs=1).fit() on {n} training samples, "
            f"then validate() once more")
    err = r["error"]
    expect(not err["raised"], f"{what}: raised {err['type']}: {err['message'][:200]} (a validation loader with no "
                              f"batches gives val_loss nan, without an error)")
    isnan = lambda d: isinstance(d, dict) and set(d) == {"val_loss"} and d["val_loss"] != d["val_loss"]  # noqa: E731
    vh = r["val_history"]
    expect(len(vh) == 2 and all(row.get("val_loss", 0.0) != row.get("val_loss", 0.0) for row in vh)
           and [row.get("step") for row in vh] == [float(-(-n // b))] * 2,
           f"{what}: val_history should hold two rows (the epoch's validation and the direct call), each with step "
           f"{-(-n // b)} and val_loss nan (the mean of no losses); got {vh}")
    expect(isnan(r["metrics"]), f"{what}: trainer.metrics should be {{'val_loss': nan}}, got {r['metrics']}")
    expect(len(r["hook"]) == 2 and all(isnan(m) for m in r["hook"]),
           f"{what}: on_validation_end should receive {{'val_loss': nan}} at each validation; got {r['hook']}")
    expect(isnan(r["returned"]), f"{what}: validate() should return {{'val_loss': nan}}, got {r['returned']}")


def _bf16_exact_draws(gen, n):
    """n values 1 + k/128 (exact in bfloat16 and float16) whose mean is not: a mean taken in half precision
    rounds it."""
    ks = torch.randint(0, 128, (n,), generator=gen).tolist()
    if sum(ks) % n == 0:
        ks[0] = (ks[0] + 1) % 128 if ks[0] < 127 else ks[0] - 1
    return [1 + k / 128 for k in ks]


def test_half_precision_losses_averaged_as_floats(student, gen):
    """the logged loss and val_loss are plain means of the batch losses as floats, also when loss_fn returns a
    bfloat16/float16 loss under autocast (no mean taken in half precision)"""
    y_train, y_val = _bf16_exact_draws(gen, 3), _bf16_exact_draws(gen, 3)
    r = student.call("half_loss_means", y_train=y_train, y_val=y_val)
    for precision in ("bf16", "fp16"):
        got = r.get(precision) if isinstance(r, dict) else None
        what = (f"Trainer(..., precision='{precision}', accum_steps=3) with lr=0, a zero Linear(1, 1) and loss_fn = "
                f"mean |out - y| (a half-precision loss equal to |y|), training batches of one with y = {y_train}, "
                f"validation batches of one with y = {y_val}")
        expect(isinstance(got, dict) and len(got.get("history_loss", [])) == 1 and len(got.get("val_loss", [])) == 1,
               f"{what}: expected one history row and one validation, got {got}")
        for key, ys in (("history_loss", y_train), ("val_loss", y_val)):
            want = sum(ys) / len(ys)
            g = got[key][0]
            expect(abs(g - want) <= 1e-6 * want,
                   f"{what}: the {'logged loss' if key == 'history_loss' else 'val_loss'} should be the plain mean "
                   f"of the batch losses as floats, {want:.10g}; got {g:.10g} (a mean taken in "
                   f"{got['dtypes']} rounds it)")


def test_to_device_keeps_structure(student, gen):
    """to_device moves tensors inside tuples, lists and dicts and leaves the structure and other values alone"""
    a, b = torch.randn(3, 2, generator=gen), torch.randn(4, generator=gen)

    def d(x):
        if isinstance(x, torch.Tensor):
            return ["tensor", "cpu", x]
        if isinstance(x, dict):
            return ["dict", {k: d(v) for k, v in x.items()}]
        if isinstance(x, (list, tuple)):
            return [type(x).__name__, [d(v) for v in x]]
        return ["other", type(x).__name__, repr(x)]

    want = d({"x": a, "pair": (a, b), "items": [b, 3, "text"], "meta": {"id": 7, "mask": b > 0}, "name": "batch",
              "array": np.arange(3)})
    got = student.call("to_device_structure", batch_kind="nested", a=a, b=b)

    def same(g, w):
        if not isinstance(g, list) or not g or g[0] != w[0]:
            return False
        if w[0] == "tensor":
            return g[1] == w[1] and isinstance(g[2], torch.Tensor) and g[2].dtype == w[2].dtype and \
                torch.equal(g[2], w[2])
        if w[0] == "dict":
            return isinstance(g[1], dict) and set(g[1]) == set(w[1]) and all(same(g[1][k], w[1][k]) for k in w[1])
        if w[0] in ("list", "tuple"):
            return len(g[1]) == len(w[1]) and all(same(x, y) for x, y in zip(g[1], w[1]))
        return list(g[1:]) == list(w[1:])

    expect(same(got, want), "Trainer(..., device='cpu').to_device({'x': t, 'pair': (t, u), 'items': [u, 3, 'text'], "
                            "'meta': defaultdict(list, {'id': 7, 'mask': u > 0}), 'name': 'batch', "
                            "'array': np.arange(3)}) should return the same structure (tuples stay tuples, lists stay "
                            "lists, dicts (a defaultdict too) stay dicts, non-tensors untouched: a NumPy array stays "
                            f"that array, it is not a tensor); got {got}")
    extra = got[2] if isinstance(got, list) and len(got) > 2 and isinstance(got[2], dict) else {}
    expect(extra.get("array_is_the_same_object") is True,
           "Trainer(..., device='cpu').to_device({..., 'array': np.arange(3)}): the NumPy array should come back as "
           "the very same object (other values are left alone), it did not")


def _same_shape(g, w):
    """Structure, device and dtype/shape of a described batch (values are not compared: meta has none)."""
    if not isinstance(g, list) or not g or g[0] != w[0]:
        return False
    if w[0] == "tensor":
        return g[1] == w[1] and isinstance(g[2], torch.Tensor) and g[2].dtype == w[2].dtype and \
            tuple(g[2].shape) == tuple(w[2].shape)
    if w[0] == "dict":
        return isinstance(g[1], dict) and set(g[1]) == set(w[1]) and all(_same_shape(g[1][k], w[1][k]) for k in w[1])
    if w[0] in ("list", "tuple"):
        return len(g[1]) == len(w[1]) and all(_same_shape(x, y) for x, y in zip(g[1], w[1]))
    return list(g[1:]) == list(w[1:])


@pytest.mark.parametrize("kind", ["tensor", "tuple", "nested", "0-dim"])
def test_to_device_moves_every_tensor(student, gen, kind):
    """to_device moves every tensor (alone, in tuples, a namedtuple among them, lists and dicts; a 0-dim one too) to
    trainer.device, shown on device='meta'"""
    sizes = torch.randint(1, 7, (3,), generator=gen).tolist()  # shapes drawn per student
    a, b = torch.randn(sizes[0], sizes[1], generator=gen), torch.randn(sizes[2], generator=gen)
    if kind == "0-dim":  # a one-element tensor is a tensor like any other (no early return for it)
        a, kind = torch.randn((), generator=gen), "tensor"
    t = lambda x: ["tensor", "meta", torch.zeros(x.shape, dtype=x.dtype)]
    want = {"tensor": t(a),
            "tuple": ["tuple", [t(a), ["list", [t(b), ["tuple", [t(a), ["other", "NoneType", "None"]]]]],
                                ["other", "int", "5"]]],
            "nested": ["dict", {"x": t(a), "pair": ["tuple", [t(a), t(b)]],
                                "items": ["list", [t(b), ["other", "int", "3"], ["other", "str", "'text'"]]],
                                "meta": ["dict", {"id": ["other", "int", "7"], "mask": t(b > 0)}],
                                "name": ["other", "str", "'batch'"],
                                "array": ["other", "ndarray", repr(np.arange(3))]}]}[kind]
    shown = {"tensor": "t", "tuple": "(t, [u, Pair(t, None)], 5), Pair a collections.namedtuple (a tuple too)",
             "nested": "{'x': t, 'pair': (t, u), 'items': [u, 3, 'text'], 'meta': defaultdict(list, {'id': 7, "
                       "'mask': u > 0}), 'name': 'batch', 'array': np.arange(3)}"}[kind]
    got = student.call("to_device_structure", batch_kind=kind, a=a, b=b, device="meta")
    expect(_same_shape(got, want), f"Trainer(..., device='meta').to_device({shown}) should return the same structure "
                                   f"with every tensor on trainer.device ('meta' here) and other values untouched; "
                                   f"got {got}")


class FitNet(nn.Module):
    """The probe's model (same parameter names): body always used, aux in the first batch only, unused never."""

    def __init__(self):
        super().__init__()
        self.body = nn.Linear(3, 1).double()
        self.aux = nn.Parameter(torch.ones(2, dtype=f64))
        self.unused = nn.Parameter(torch.ones(2, dtype=f64))


def fit_start(student, gen):
    """The student's run from stale gradients and eval() mode, and the judge's explicit loop from a clean start."""
    n, b = 2 * int(torch.randint(3, 7, (1,), generator=gen)), 2
    X = torch.randn(n, 3, generator=gen, dtype=f64)
    Y = torch.randn(n, 1, generator=gen, dtype=f64)
    torch.manual_seed(int(torch.randint(0, 2**31 - 1, (1,), generator=gen)))
    model = FitNet()
    with torch.no_grad():  # aux and unused start from values drawn per student
        model.aux.copy_(torch.randn(2, generator=gen, dtype=f64))
        model.unused.copy_(torch.randn(2, generator=gen, dtype=f64))
    init = {k: v.detach().clone() for k, v in model.state_dict().items()}
    stale = float(torch.randint(2, 9, (1,), generator=gen))
    outside = torch.randn(2, generator=gen, dtype=f64)  # a tensor the optimizer trains outside the model
    got = student.call("fit_start_run", init=init, X=X, Y=Y, stale=stale, batch_size=b, outside=outside)
    temp = outside.clone().requires_grad_()
    opt = torch.optim.AdamW([*model.parameters(), temp], lr=0.1, weight_decay=0.5)
    opt.zero_grad(set_to_none=True)
    for i in range(0, n, b):
        loss = F.mse_loss(model.body(X[i:i + b]), Y[i:i + b]) + (model.aux.sum() + temp.sum() if i == 0 else 0)
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
    what = (f"a model left in eval() mode with a stale .grad of {stale:g} on every parameter (and on a tensor "
            f"'outside' the optimizer also trains, not part of the model), then "
            f"Trainer(model, AdamW([*model.parameters(), outside], weight_decay=0.5), {n // b} batches of {b}).fit()")
    return got, {**{k: v.detach() for k, v in model.state_dict().items()}, "outside": temp.detach()}, what


@pytest.mark.task("trainer", weight=0.1)  # its right answer is a constant (True): worth little
def test_fit_trains_in_train_mode(student, gen):
    """fit() puts the model in train() mode before the first batch"""
    got, _, what = fit_start(student, gen)
    expect(got["training"] and all(got["training"]),
           f"{what}: model.training inside loss_fn should be True for every batch (fit() calls model.train() "
           f"first), got {got['training']}")


@pytest.mark.task("trainer", weight=0.1)  # its right answer is a constant (the trainer): worth little
def test_fit_returns_the_trainer(student, gen):
    """fit() returns the trainer itself"""
    got, _, what = fit_start(student, gen)
    expect(got["returned_trainer"], f"{what}: fit() should return the trainer itself (`return self`), "
                                    f"got a {got['returned']}")


def test_fit_clears_stale_gradients(student, gen):
    """fit() drops gradients left from before with optimizer.zero_grad(set_to_none=True): a frozen parameter stays
    put, and so does the stale gradient of a tensor the optimizer trains outside the model"""
    got, want, what = fit_start(student, gen)
    expect_close(got["params"]["unused"], want["unused"],
                 f"{what}: the parameter no loss uses ('unused') must not move: fit() calls "
                 f"optimizer.zero_grad(set_to_none=True) before on_fit_start, so its stale gradient is gone and "
                 f"AdamW skips it (a zero gradient would still apply weight decay)", atol=1e-12, rtol=0)
    for k in ("body.weight", "body.bias"):
        expect_close(got["params"][k], want[k], f"{what}: final weights '{k}' (the stale gradient must not reach "
                                                f"the first step)", atol=1e-10, rtol=1e-8)
    expect_close(got["outside"], want["outside"],
                 f"{what}: the tensor 'outside' (in the optimizer, not in the model; only the first batch uses it) "
                 f"after fit(): optimizer.zero_grad(set_to_none=True), not model.zero_grad(), drops the stale gradients "
                 f"of everything the optimizer trains", atol=1e-10, rtol=1e-8)


def test_step_sets_gradients_to_none(student, gen):
    """after each optimizer step the gradients are set to None, so a parameter without a gradient is skipped"""
    got, want, what = fit_start(student, gen)
    expect_close(got["params"]["aux"], want["aux"],
                 f"{what}: 'aux' gets a gradient in the first batch only, so only the first step may move it: "
                 f"after each step call optimizer.zero_grad(set_to_none=True) (a zero gradient would let AdamW "
                 f"keep moving it)", atol=1e-10, rtol=1e-8)


def test_fit_ckpt_path_loads_first(student, gen):
    """fit(ckpt_path) calls load_checkpoint(ckpt_path) before on_fit_start and continues from the restored point"""
    pick = lambda lo, hi: int(torch.randint(lo, hi + 1, (1,), generator=gen))  # noqa: E731
    nb, epoch = pick(3, 7), pick(0, 2)
    bie = pick(1, nb - 1)
    path = f"/tmp/ckpt-probe/step-{pick(1, 999):06d}.pt"
    r = student.call("fit_ckpt_path_run", n=2 * nb, batch_size=2, path=path, epoch=epoch, batch_in_epoch=bie)
    what = (f"Trainer(..., max_epochs={epoch + 1}).fit({path!r}) where load_checkpoint restores epoch={epoch}, "
            f"batch_in_epoch={bie} ({nb} batches per epoch)")
    ev = [list(e) for e in r["events"]]
    expect(ev[:2] == [["load_checkpoint", path], ["on_fit_start", None]],
           f"{what}: the first calls should be load_checkpoint({path!r}) then on_fit_start, got "
           f"{', '.join(fmt(e) if e[0] != 'load_checkpoint' else f'load_checkpoint({e[1]!r})' for e in ev[:3])}")
    batches = [e[1] for e in ev if e[0] == "on_batch_start"]
    want = list(range(bie, nb))
    expect(batches == want and r["history_epochs"] == [epoch] * len(want),
           f"{what}: training should continue epoch {epoch} at batch_idx {bie} (batches {want}, history epochs "
           f"{[epoch] * len(want)}), got batches {batches}, history epochs {r['history_epochs']}")


@pytest.mark.task("trainer", weight=0.1)  # its right answer is a constant (0.0): worth little
def test_grad_norm_without_gradients(student):
    """the logged grad_norm is 0.0 when no parameter has a gradient"""
    r = student.call("no_grad_run")
    what = "Trainer(...).fit() with a loss_fn whose loss depends on no parameter (2 batches)"
    expect(r["grad_norms"] == [0.0, 0.0] and r["last"] == 0.0,
           f"{what}: every logged grad_norm and trainer.last_grad_norm should be 0.0 (no parameter has a "
           f"gradient), got {r['grad_norms']} and {r['last']}")


def hook_run(student, gen):
    n = 2 * int(torch.randint(2, 5, (1,), generator=gen))
    X = torch.randn(n, 3, generator=gen, dtype=f64) * 3
    Y = torch.randn(n, 1, generator=gen, dtype=f64)
    Xv = torch.randn(4, 3, generator=gen, dtype=f64)
    Yv = torch.randn(4, 1, generator=gen, dtype=f64)
    torch.manual_seed(int(torch.randint(0, 2**31 - 1, (1,), generator=gen)))
    net = nn.Sequential(nn.Linear(3, 6), nn.Dropout(0.5), nn.Linear(6, 1)).double()
    init = {k: v.clone() for k, v in net.state_dict().items()}
    r = student.call("hook_views", init=init, X=X, Y=Y, Xv=Xv, Yv=Yv, batch_size=2)
    r["judge_steps"] = n  # n // 2 batches a step each, 2 epochs
    what = (f"Trainer(model left in eval() mode with stale gradients, {n // 2} batches, val_loader, max_epochs=2, "
            f"max_grad_norm=0.5).fit() with a callback reading the trainer")
    return r, what


def test_on_fit_start_sees_train_mode_without_gradients(student, gen):
    """on_fit_start fires after fit() put the model in train() mode and dropped the stale gradients"""
    r, what = hook_run(student, gen)
    fs = r["views"]["fit_start"]
    expect(len(fs) == 1, f"{what}: on_fit_start fired {len(fs)} times, expected once")
    expect(fs[0]["training"], f"{what}: inside on_fit_start the model was still in eval() mode: fit() calls "
                              f"model.train() first, then fires on_fit_start")
    expect(all(fs[0]["grads_none"]), f"{what}: inside on_fit_start some .grad was not None ({fs[0]['grads_none']}): "
                                     f"fit() calls optimizer.zero_grad(set_to_none=True) before on_fit_start")


def test_last_grad_norm_stored_before_hook(student, gen):
    """on_before_optimizer_step sees this step's trainer.last_grad_norm (the one logged for it), and global_step
    before its increment (the step is counted after the optimizer step)"""
    r, what = hook_run(student, gen)
    seen, logged = r["views"]["step"], r["grad_norms"]
    expect(len(logged) == len(r["logged_steps"]) == len(r["views"]["step_at"]) == r["judge_steps"],
           f"{what}: expected {r['judge_steps']} optimizer steps, logged {len(logged)} grad norms and "
           f"{len(r['logged_steps'])} steps, on_before_optimizer_step saw {len(r['views']['step_at'])}")
    for i, (at, step) in enumerate(zip(r["views"]["step_at"], r["logged_steps"])):
        expect(at == step - 1, f"{what}: on_before_optimizer_step of the step logged as step {step} saw "
                               f"trainer.global_step = {at}, expected {step - 1}: the lifecycle fires it before the "
                               f"optimizer step, and global_step += 1 comes after the step (and after zero_grad and "
                               f"the scheduler)")
    expect(len(seen) == len(logged), f"{what}: on_before_optimizer_step fired {len(seen)} times for {len(logged)} "
                                      f"logged steps")
    for i, (s, g) in enumerate(zip(seen, logged)):
        expect(s == g, f"{what}: at step {i + 1}, on_before_optimizer_step saw trainer.last_grad_norm = {s:.10g}, "
                       f"but the step's logged grad_norm is {g:.10g}: store the norm in self.last_grad_norm BEFORE "
                       f"firing on_before_optimizer_step")


def test_on_validation_end_sees_stored_metrics_in_train_mode(student, gen):
    """on_validation_end fires after metrics and val_history are stored and the model is back in train() mode"""
    r, what = hook_run(student, gen)
    vals = r["views"]["val"]
    expect(len(vals) == 2, f"{what}: on_validation_end fired {len(vals)} times, expected 2 (one per epoch)")
    for i, v in enumerate(vals):
        at = f"{what}: in on_validation_end of epoch {i}"
        expect(v["training"], f"{at} the model was in eval() mode: validate() switches back to train() BEFORE "
                              f"firing on_validation_end")
        expect(v["metrics_attr"] == v["metrics_arg"], f"{at} trainer.metrics was {v['metrics_attr']}, the hook's "
                                                      f"metrics {v['metrics_arg']}: store self.metrics first")
        expect(v.get("metrics_is_attr") is True,
               f"{at} trainer.metrics was not the dict the hook received (values {v['metrics_attr']} and "
               f"{v['metrics_arg']}): validate() stores metrics in self.metrics and passes that same dict (a key a "
               f"callback adds to it shows in trainer.metrics)")
        last = v["val_history_last"] or {}
        expect(v["val_history_len"] == i + 1 and last.get("val_loss") == v["metrics_arg"].get("val_loss"),
               f"{at} trainer.val_history had {v['val_history_len']} rows (last {last}), expected {i + 1} with this "
               f"validation's val_loss {v['metrics_arg'].get('val_loss')}: append the row before firing the hook")


def test_before_step_hook_sees_clipped_gradients(student, gen):
    """on_before_optimizer_step comes after the clipping: the gradients it sees have a global norm of at most
    max_grad_norm"""
    r, what = hook_run(student, gen)
    seen, logged = r["views"]["step_grad_norm"], r["grad_norms"]
    expect(len(seen) == r["judge_steps"], f"{what}: on_before_optimizer_step fired {len(seen)} times, expected "
                                          f"{r['judge_steps']}")
    for i, s in enumerate(seen):
        before = f" (the step's logged norm before clipping: {logged[i]:.10g})" if i < len(logged) else ""
        expect(s <= 0.5 * (1 + 1e-9), f"{what}: at step {i + 1}, the gradients on_before_optimizer_step saw had a "
                                      f"global L2 norm of {s:.10g}{before}, expected at most max_grad_norm = 0.5: the "
                                      f"lifecycle is unscale, measure, clip, THEN on_before_optimizer_step")


def test_lr_set_before_the_step_is_logged(student, gen):
    """a learning rate a callback sets in on_before_optimizer_step (a manual warm-up) is the one that step uses: it
    is the "lr" logged for that step"""
    r, what = hook_run(student, gen)
    lr_set, logged = r["views"]["lr_set"], r["logged_lrs"]
    expect(len(logged) == len(lr_set) == r["judge_steps"],
           f"{what}: expected {r['judge_steps']} logged steps and as many on_before_optimizer_step calls, got "
           f"{len(logged)} and {len(lr_set)}")
    for i, (want, got) in enumerate(zip(lr_set, logged)):
        expect(got == want, f"{what}, the callback setting optimizer.param_groups[0]['lr'] = {want:g} in "
                            f"on_before_optimizer_step of step {i + 1}: the step logged lr {got!r}, expected {want:g}, "
                            f"the lr used for this step (read it after on_before_optimizer_step, before the scheduler "
                            f"steps)")


def test_each_validation_has_its_own_metrics(student, gen):
    """each validation stores and passes a new metrics dict: the one on_validation_end got in epoch 0 still holds
    epoch 0's val_loss after the run"""
    r, what = hook_run(student, gen)
    vals, kept = r["views"]["val"], r["kept_after_fit"]
    expect(len(vals) == len(kept) == 2, f"{what}: on_validation_end fired {len(kept)} times, expected 2")
    for i, (v, k) in enumerate(zip(vals, kept)):
        expect(k == v["metrics_arg"], f"{what}: the metrics dict on_validation_end received in epoch {i} was "
                                      f"{v['metrics_arg']} then, and {k} after fit(): validate() builds "
                                      f"metrics = {{'val_loss': value}} anew each time (store it, pass it, return it), "
                                      f"it does not update one dict kept across validations")


@pytest.mark.parametrize("precision", ["bf16", "fp16"])
def test_backward_outside_autocast(student, precision):
    """backward runs outside the autocast context (a gradient hook records whether autocast is on)"""
    r = student.call("backward_autocast_run", precision=precision)
    seen = r["autocast_in_backward"]
    what = f"Trainer(..., precision={precision!r}, device='cpu').fit() over 2 batches"
    expect(len(seen) == 2, f"{what}: a gradient hook on the forward's output ran {len(seen)} times, expected 2")
    expect(not any(seen), f"{what}: autocast was still on while backward ran ({seen}): leave the autocast block "
                          f"after forward and loss, then call backward")


def test_set_epoch_before_the_iterator(student, gen):
    """sampler.set_epoch(epoch) is called before the epoch's iterator is created"""
    epochs = int(torch.randint(2, 5, (1,), generator=gen))
    r = student.call("iterator_epochs_run", n=6, batch_size=2, epochs=epochs)
    what = (f"Trainer over a DataLoader subclass that notes its sampler's epoch when iter(loader) is called, "
            f"max_epochs={epochs}")
    expect(r["epochs_at_iter"] == list(range(epochs)),
           f"{what}: the sampler's epochs when each iterator was created were {r['epochs_at_iter']}, expected "
           f"{list(range(epochs))}: call sampler.set_epoch(self.epoch) before iter(self.train_loader)")


def test_pending_rng_restored_once(student, gen):
    """a pending RNG snapshot is restored right after the first epoch's iterator exists, then set to None"""
    seed = int(torch.randint(0, 2**31 - 1, (1,), generator=gen))
    epochs = int(torch.randint(2, 4, (1,), generator=gen))
    r = student.call("pending_rng_run", seed=seed, n=6, batch_size=2, epochs=epochs)
    saved = torch.get_rng_state()
    try:
        torch.manual_seed(seed)
        want = [float(torch.rand((), dtype=f64)) for _ in range(3 * epochs)]
    finally:
        torch.set_rng_state(saved)
    what = (f"Trainer with trainer._pending_rng = capture_rng_state() taken after torch.manual_seed({seed}), then "
            f"the generators scrambled, fit() over {epochs} epochs of 3 batches; loss_fn draws torch.rand(())")
    got = r["draws"]
    if got != want:
        j = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
        fail(f"{what}: the draws should continue one stream from the snapshot ({want[:6]}...); they differ at batch "
             f"{j} (epoch {j // 3}): restore the snapshot once, right after the first iterator exists, and set "
             f"_pending_rng to None")
    expect(r["pending_after"] is None, f"{what}: trainer._pending_rng after fit() is a {r['pending_after']}, "
                                       f"expected None")


def test_on_batch_end_gets_the_batch_loss_as_a_float(student, gen):
    """on_batch_end(trainer, batch, batch_idx, loss) receives this batch's loss as a Python float: not a tensor, and not
    divided by accum_steps"""
    X = torch.randn(10, 3, generator=gen, dtype=torch.float64)
    Y = torch.randn(10, 1, generator=gen, dtype=torch.float64)
    r = student.call("batch_end_losses", X=X, Y=Y, batch_size=3, accum=2)
    want = [float(torch.nn.functional.mse_loss(X[i:i + 3] @ torch.full((3, 1), 0.5, dtype=torch.float64) - 0.25,
                                                Y[i:i + 3])) for i in range(0, 10, 3)]
    what = "Trainer(..., accum_steps=2) on 10 samples in batches of 3 (SGD with lr=0): the `loss` on_batch_end got"
    got = r["losses"]
    expect(len(got) == len(want), f"{what}: {len(want)} calls expected, got {len(got)}")
    for i, (g, w) in enumerate(zip(got, want)):
        expect(g["type"] == "float", f"{what}, batch {i}: a Python float expected (float(loss)), got a {g['type']}")
        expect(abs(g["value"] - w) <= 1e-9 * max(1.0, abs(w)),
               f"{what}, batch {i}: {w:.6g} expected (the batch's loss, not divided by accum_steps), got {g['value']:.6g}")


def test_backward_at_every_batch(student, gen):
    """each batch runs its own backward (of loss / accum_steps) before on_after_backward: that hook sees the gradient
    summed over the group's batches so far, not a backward saved for the step"""
    n, b = 10 + int(torch.randint(0, 3, (1,), generator=gen)), 3
    accum = int(torch.randint(2, 4, (1,), generator=gen))
    X = torch.randn(n, 3, generator=gen, dtype=torch.float64)
    Y = torch.randn(n, 1, generator=gen, dtype=torch.float64)
    r = student.call("batch_end_losses", X=X, Y=Y, batch_size=b, accum=accum)
    what = (f"Trainer(..., accum_steps={accum}) on {n} samples in batches of {b} (SGD with lr=0): the gradients "
            f"on_after_backward saw")
    model = torch.nn.Linear(3, 1).double()
    with torch.no_grad():
        model.weight.fill_(0.5)
        model.bias.fill_(-0.25)
    starts = list(range(0, n, b))
    got = r["grads"]
    expect(len(got) == len(starts), f"{what}: on_after_backward fired {len(got)} times for {len(starts)} batches")
    total = None
    for i, start in enumerate(starts):
        if i % accum == 0:
            total = [torch.zeros_like(p) for p in model.parameters()]
        model.zero_grad(set_to_none=True)
        (F.mse_loss(model(X[start:start + b]), Y[start:start + b]) / accum).backward()
        total = [t + p.grad for t, p in zip(total, model.parameters())]
        expect(len(got[i]) == 2 and all(g is not None for g in got[i]),
               f"{what}: after batch {i} (batch {i % accum + 1} of its group) some .grad was None: run "
               f"(loss / accum_steps).backward() for every batch, before on_after_backward")
        for name, g, w in zip(("weight", "bias"), got[i], total):
            expect_close(g, w, f"{what}: {name}.grad after batch {i} (the sum of (loss / {accum}) gradients of the "
                               f"group's batches up to this one)", atol=1e-12, rtol=1e-9)


def test_logged_lr_with_a_tensor_learning_rate(student, gen):
    """the logged lr is the one each step used, also for a tensor learning rate that the scheduler updates in place,
    and it is a float (an int learning rate too)"""
    lr = float(torch.empty(()).uniform_(0.01, 0.1, generator=gen))
    gamma = float(torch.empty(()).uniform_(0.3, 0.8, generator=gen))
    steps = int(torch.randint(3, 6, (1,), generator=gen))
    r = student.call("tensor_lr_run", lr=lr, gamma=gamma, steps=steps)
    want = [float(torch.tensor(lr)) * gamma ** k for k in range(steps)]
    expect(len(r["lrs"]) == steps and all(abs(g - w) <= 1e-6 * w for g, w in zip(r["lrs"], want)),
           f"AdamW(params, lr=torch.tensor({lr:.4g})) with ExponentialLR(gamma={gamma:.4g}), {steps} steps: the "
           f"logged lr should be the value each step used, {[round(w, 6) for w in want]}, got "
           f"{[round(g, 6) for g in r['lrs']]} (the scheduler updates that tensor in place: log its value)")
    rows = r["int_lr_rows"]
    expect(len(rows) == 2 and all(t == "float" for t, _ in rows),
           f"SGD(params, lr=0) (an int learning rate), 2 steps: each history row's lr should be a float, "
           f"float(optimizer.param_groups[0]['lr']) = 0.0 (the text: \"lr\": ... \"as a float\"), got "
           f"{', '.join(f'{v} ({t})' for t, v in rows) or 'no rows'}")


@pytest.mark.parametrize("precision,dtype", [("bf16", "bfloat16"), ("fp16", "float16")])
def test_autocast_follows_the_trainer_device(student, gen, precision, dtype):
    """autocast follows the Trainer's device: a CPU run autocasts on the CPU also where CUDA is available"""
    seed = int(torch.randint(0, 2**31 - 1, (1,), generator=gen))
    r = student.call("precision_cuda_visible", precision=precision, seed=seed)
    what = (f"Trainer(..., precision='{precision}', device='cpu') on a machine where torch.cuda.is_available() "
            f"is True (made to answer True here)")
    expect("error" not in r, f"{what}: fit() raised {r.get('error')}; the autocast context is "
                             f"torch.autocast(device.type, ...) with the Trainer's device, here 'cpu'")
    expect(r["out"] and all(d == f"torch.{dtype}" for d in r["out"]),
           f"{what}: the model's output inside loss_fn should be torch.{dtype} (torch.autocast('cpu', "
           f"dtype=torch.{dtype}): the Trainer's device, not whether CUDA exists), got {r['out']}")


def test_resume_after_fit_returned_trains_nothing(student, gen):
    """a run resumed at the state fit() ended in (every epoch done) trains nothing more: no epoch hooks, no batches,
    no validation"""
    epochs = int(torch.randint(1, 3, (1,), generator=gen))
    nb = int(torch.randint(2, 4, (1,), generator=gen))
    r = student.call("resume_after_fit_run", n=2 * nb, batch_size=2, epochs=epochs)
    what = (f"Trainer(..., val_loader=..., max_epochs={epochs}).fit() to the end ({nb} batches per epoch), then a "
            f"fresh Trainer's fit(ckpt_path) whose load_checkpoint restores the epoch, batch_in_epoch and global_step "
            f"the first run ended with (epoch, batch_in_epoch, global_step = {tuple(r['ended'])}), as a checkpoint "
            f"written after fit() returned holds them")
    ev = [list(e) for e in r["events"]]
    expect(ev == [["on_fit_start", None], ["on_fit_end", None]] and r["steps_after"] == epochs * nb
           and r["val_history"] == 0,
           f"{what}: every epoch is done, so only on_fit_start and on_fit_end should fire, with global_step staying "
           f"{epochs * nb} and no validation; got {', '.join(fmt(e) for e in ev[:8])}{' ...' if len(ev) > 8 else ''}, "
           f"global_step {r['steps_after']}, {r['val_history']} validations")
