"""Hidden checks for RunningMetrics (15-04, judge side)."""
import math

import pytest
import torch

from course.judge.adapter import StudentError
from course.judge.expect import expect, expect_close, expect_equal, fail

pytestmark = pytest.mark.task("running_metrics")
RM = "RunningMetrics"
f64 = torch.float64


def make_batches(gen, sizes, c, dtype=torch.float32):
    out = []
    for n in sizes:
        logits = torch.randn(n, c, generator=gen, dtype=dtype)
        targets = torch.randint(0, c, (n,), generator=gen)
        # per-batch MEAN loss; the small last batch gets a very different value so that
        # averaging the batch means (instead of weighting by size) is visibly wrong
        loss = torch.rand((), generator=gen, dtype=torch.float64) * (5.0 if n < max(sizes) else 1.0) + 0.1
        out.append({"loss": loss.to(dtype), "logits": logits, "targets": targets})
    return out


def reference(batches, c):
    n = sum(b["targets"].numel() for b in batches)
    loss = sum(float(b["loss"]) * b["targets"].numel() for b in batches if b["targets"].numel()) / n
    preds = torch.cat([b["logits"].argmax(1) for b in batches])
    targets = torch.cat([b["targets"] for b in batches])
    conf = torch.bincount(targets * c + preds, minlength=c * c).view(c, c)
    return {"loss": loss, "accuracy": float((preds == targets).double().mean()), "confusion": conf}


def result_dict(res, what):
    if not isinstance(res, dict):
        fail(f"{what}: compute() must return a dict with keys 'loss', 'accuracy', 'confusion', "
             f"got {type(res).__name__}")
    missing = [k for k in ("loss", "accuracy", "confusion") if k not in res]
    if missing:
        fail(f"{what}: the dict from compute() lacks {missing} (it has {sorted(res)})")
    return res


def number(x, what):
    if isinstance(x, torch.Tensor) and x.numel() == 1:
        return float(x.reshape(()))
    if isinstance(x, (int, float)) and not isinstance(x, bool):
        return float(x)
    fail(f"{what}: expected a number (float or 1-element tensor), got {str(x)[:120]}")


def confusion(x, c, what):
    if not isinstance(x, torch.Tensor):
        fail(f"{what}: 'confusion' must be a tensor of shape ({c}, {c}), got {str(x)[:120]}")
    if tuple(x.shape) != (c, c):
        fail(f"{what}: 'confusion' must have shape ({c}, {c}), got {tuple(x.shape)}")
    return x


SIZES = [[32, 32, 32, 5], [16, 16, 3], [10, 1], [7]]


@pytest.mark.parametrize("sizes", SIZES, ids=["-".join(map(str, s)) for s in SIZES])
def test_loss_weighted_by_batch_size(student, gen, sizes):
    """RunningMetrics: 'loss' is the per-sample mean over all batches, even with an uneven last batch"""
    c = 5
    batches = make_batches(gen, sizes, c)
    want = reference(batches, c)
    what = f"{RM}({c}) after update() with batch sizes {sizes}"
    out = student.call("metrics_run", num_classes=c, batches=batches)
    res = result_dict(out["result"], what)
    got = number(res["loss"], what + ", compute()['loss']")
    means = sum(float(b["loss"]) for b in batches) / len(batches)
    hint = " (that is the plain mean of the batch means: weight each batch by its size)" \
        if abs(got - means) < 1e-5 * max(1.0, abs(means)) else ""
    expect(abs(got - want["loss"]) <= 1e-5 * max(1.0, abs(want["loss"])),
           f"{what}: compute()['loss'] should be {want['loss']:.6f} (mean over all samples), got {got:.6f}{hint}")


def test_empty_batch_with_a_nan_loss(student, gen):
    """RunningMetrics: an empty batch's loss counts for nothing, even the nan F.cross_entropy gives for no samples"""
    c = 4
    sizes = [16, 0, 16, 3]
    batches = make_batches(gen, sizes, c)
    empty = batches[1]
    empty["loss"] = torch.full((), float("nan"))  # what F.cross_entropy gives for no samples (the mean of none)
    want = reference(batches, c)
    what = (f"{RM}({c}) after update() with batch sizes {sizes}, the empty batch's loss nan as "
            f"F.cross_entropy gives it (the text: 'B may be 0: an empty batch adds no sample, and its loss ... "
            f"counts for nothing')")
    res = result_dict(student.call("metrics_run", num_classes=c, batches=batches)["result"], what)
    got = number(res["loss"], what + ", compute()['loss']")
    expect(got == got and abs(got - want["loss"]) <= 1e-5 * max(1.0, abs(want["loss"])),
           f"{what}: compute()['loss'] should be {want['loss']:.6f} (mean over the 35 samples), got {got}")


def test_nan_loss_of_a_real_batch(student, gen):
    """RunningMetrics: a NON-empty batch whose mean loss is nan (a diverged step) still adds its samples: the mean
    loss over all samples becomes nan, and its predictions count in the accuracy and the confusion matrix"""
    c = 4
    sizes = [8, 5, 6]
    batches = make_batches(gen, sizes, c)
    batches[1]["loss"] = torch.full((), float("nan"))
    want = reference(batches, c)
    what = (f"{RM}({c}) after update() with batch sizes {sizes}, the 5-sample batch's mean loss nan (the text: only "
            f"an EMPTY batch (B = 0) 'adds no sample' and has its loss count for nothing; 'loss is the mean over all "
            f"samples seen', 'confusion[i, j] counts samples of true class i predicted as j')")
    res = result_dict(student.call("metrics_run", num_classes=c, batches=batches)["result"], what)
    got = number(res["loss"], what + ", compute()['loss']")
    expect(math.isnan(got), f"{what}: compute()['loss'] should be nan (a nan among the samples' losses makes "
                            f"their mean nan, as the per-sample mean over all {sum(sizes)} samples is), got {got}")
    acc = number(res["accuracy"], what + ", compute()['accuracy']")
    expect(abs(acc - want["accuracy"]) <= 1e-6,
           f"{what}: compute()['accuracy'] should be {want['accuracy']:.6f} (over all {sum(sizes)} samples), "
           f"got {acc}")
    expect_equal(confusion(res["confusion"], c, what).to(torch.long), want["confusion"],
                 f"{what}, compute()['confusion'] (all {sum(sizes)} samples, the nan-loss batch's included)")


# 16-0-16-3: an empty batch (B = 0, its mean loss a finite number) among the others adds no sample: the mean of
# a batch accuracy over no samples is nan, so accuracy kept as sum(batch accuracy * B) turns nan there
ACC_SIZES = [SIZES[0], [16, 0, 16, 3]]


@pytest.mark.parametrize("sizes", ACC_SIZES, ids=["-".join(map(str, s)) for s in ACC_SIZES])
def test_accuracy_and_confusion(student, gen, sizes):
    """RunningMetrics: accuracy and the confusion matrix (rows = true class, columns = prediction) over all batches"""
    c = 4
    batches = make_batches(gen, sizes, c)
    want = reference(batches, c)
    what = f"{RM}({c}) after update() with batch sizes {sizes}" + \
        (" (the text: 'B may be 0: an empty batch adds no sample')" if 0 in sizes else "")
    res = result_dict(student.call("metrics_run", num_classes=c, batches=batches)["result"], what)
    acc = number(res["accuracy"], what + ", compute()['accuracy']")
    expect(abs(acc - want["accuracy"]) <= 1e-6,
           f"{what}: compute()['accuracy'] should be {want['accuracy']:.6f}, got {acc:.6f}"
           + (" (it looks like a percentage; return a fraction in [0, 1])" if acc > 1 else ""))
    conf = confusion(res["confusion"], c, what)
    if torch.equal(conf.to(torch.long), want["confusion"].T) and not torch.equal(want["confusion"], want["confusion"].T):
        fail(f"{what}: the confusion matrix is transposed: row i must count samples whose TRUE class is i")
    expect_equal(conf.to(torch.long), want["confusion"], f"{what}, compute()['confusion']")
    expect(int(conf.sum()) == sum(sizes), f"{what}: the confusion matrix must count every sample once")


# The meta stand-in cannot tell here: a confusion matrix counted with bincount on the logits' device needs values
# (meta cannot), and the reference's .cpu() cannot copy out of meta; so this one runs on a real GPU.
@pytest.mark.gpu
def test_logits_on_the_gpu(student, gen):
    """RunningMetrics with logits, targets and losses on the GPU (as in the notebook's evaluate()): same loss,
    accuracy and confusion matrix"""
    c = 4
    sizes = [16, 16, 3]
    batches = make_batches(gen, sizes, c)
    want = reference(batches, c)
    what = (f"{RM}({c}) after update() with batch sizes {sizes}, logits, targets and losses on the GPU (the "
            f"notebook's evaluate(model, loader, DEVICE); a confusion matrix made without device= is on the CPU, "
            f"and cpu_matrix += cuda_counts raises)")
    res = result_dict(student.call("metrics_run", num_classes=c, batches=batches, device="cuda")["result"], what)
    got = number(res["loss"], what + ", compute()['loss']")
    expect(abs(got - want["loss"]) <= 1e-5 * max(1.0, abs(want["loss"])),
           f"{what}: compute()['loss'] should be {want['loss']:.6f}, got {got:.6f}")
    acc = number(res["accuracy"], what + ", compute()['accuracy']")
    expect(abs(acc - want["accuracy"]) <= 1e-6, f"{what}: compute()['accuracy'] should be "
                                                f"{want['accuracy']:.6f}, got {acc:.6f}")
    expect_equal(confusion(res["confusion"], c, what).cpu().to(torch.long), want["confusion"],
                 f"{what}, compute()['confusion']")


def test_accepts_float_and_float64(student, gen):
    """RunningMetrics: update() accepts the loss as a Python float and float64 logits"""
    c = 3
    batches = make_batches(gen, [8, 8, 2], c, dtype=torch.float64)
    want = reference(batches, c)
    what = f"{RM}({c}) fed float losses and float64 logits, batch sizes [8, 8, 2]"
    res = result_dict(student.call("metrics_run", num_classes=c, batches=batches, loss_kind="float")["result"], what)
    got = number(res["loss"], what)
    expect(abs(got - want["loss"]) <= 1e-6 * max(1.0, want["loss"]),
           f"{what}: compute()['loss'] should be {want['loss']:.6f}, got {got:.6f}")
    expect(abs(number(res["accuracy"], what) - want["accuracy"]) <= 1e-6,
           f"{what}: compute()['accuracy'] should be {want['accuracy']:.6f}, got {number(res['accuracy'], what):.6f}")


@pytest.mark.task("running_metrics", weight=0.1)  # its right answer is a constant (no growth): worth little
def test_state_does_not_grow(student, gen):
    """RunningMetrics keeps a fixed-size state: no list of past predictions, losses or batch sizes"""
    c = 5
    few = make_batches(gen, [8, 8], c)
    more = make_batches(gen, [8] * 40, c)
    r = student.call("metrics_growth", num_classes=c, batches_few=few, batches_more=more)
    expect(r["many"] <= r["few"],
           f"{RM}: the object's state grew from {r['few']} stored numbers after 2 updates to {r['many']} after 42: "
           f"keep running sums and counts (and a {c}x{c} confusion matrix), not histories")


def test_holds_no_autograd_graph(student, gen):
    """RunningMetrics does not keep autograd graphs alive (losses and logits that require grad)"""
    c = 4
    batches = make_batches(gen, [6, 6, 3], c)
    want = reference(batches, c)
    out = student.call("metrics_run", num_classes=c, batches=batches, loss_kind="graph", logits_grad=True)
    what = f"{RM}({c}) fed losses with a grad_fn and logits with requires_grad=True"
    expect(not out["graph_held"],
           f"{what}: it stores tensors that are part of an autograd graph ({', '.join(out['graph_held'][:4])}); "
           f"every stored value must be detached (.item(), .detach() or torch.no_grad()), or each update keeps the "
           f"whole batch's graph in memory")
    res = result_dict(out["result"], what)
    got = number(res["loss"], what)
    expect(abs(got - want["loss"]) <= 1e-5 * max(1.0, want["loss"]),
           f"{what}: compute()['loss'] should be {want['loss']:.6f}, got {got:.6f}")


def test_reset_and_independent_instances(student, gen):
    """RunningMetrics: two instances never share state, reset() starts over, and an empty metric gives NaN (fresh,
    after reset(), or fed only empty batches)"""
    c = 3
    ba, bb = make_batches(gen, [5, 4], c), make_batches(gen, [6, 2, 1], c)
    wa, wb = reference(ba, c), reference(bb, c)
    r = student.call("metrics_reset_and_independence", num_classes=c, batches_a=ba, batches_b=bb)
    for key, want, label in (("a", wa, "the first instance"), ("b", wb, "a second instance fed other data"),
                             ("a_after_reset", wb, "the first instance after reset() and the second one's data")):
        what = f"{RM}({c}), {label}"
        res = result_dict(r[key], what)
        expect(abs(number(res["loss"], what) - want["loss"]) <= 1e-5 * max(1.0, want["loss"]),
               f"{what}: compute()['loss'] should be {want['loss']:.6f}, got {number(res['loss'], what):.6f} "
               f"(state shared between instances, e.g. a class attribute, or not cleared by reset()?)")
        acc = number(res["accuracy"], what + ", compute()['accuracy']")
        expect(abs(acc - want["accuracy"]) <= 1e-6,
               f"{what}: compute()['accuracy'] should be {want['accuracy']:.6f}, got {acc:.6f} (the text: "
               f"'reset() starts over', 'Separate instances must never share state': every counter, a count of "
               f"correct predictions included, is cleared by reset() and belongs to one instance)")
        expect_equal(confusion(res["confusion"], c, what).to(torch.long), want["confusion"],
                     f"{what}, compute()['confusion']")
    for key, label in (("empty", "a fresh instance"), ("after_reset_empty", "an instance right after reset()")):
        what = f"{RM}({c}), compute() on {label}"
        res = result_dict(r[key], what)
        for k in ("loss", "accuracy"):
            v = number(res[k], f"{what}, '{k}'")
            expect(math.isnan(v), f"{what}: '{k}' must be nan when no sample has been seen, got {v}")
        expect(int(confusion(res["confusion"], c, what).abs().sum()) == 0,
               f"{what}: the confusion matrix must be all zeros")
    # updates that bring no sample (B = 0) leave it empty: "no samples yet" counts samples, not update() calls
    empty_batches = make_batches(gen, [0, 0], c)
    what = f"{RM}({c}), compute() after two update() calls with empty batches (B = 0)"
    try:
        res = result_dict(student.call("metrics_run", num_classes=c, batches=empty_batches)["result"], what)
    except StudentError as e:  # the student's error, e.g. 0 / 0, is the finding
        fail(f"{what}: {e}; expected loss and accuracy nan and a zero matrix (the text: "
             f"'an empty batch adds no sample'; 'With no samples yet, loss and accuracy are nan')")
    for k in ("loss", "accuracy"):
        v = number(res[k], f"{what}, '{k}'")
        expect(math.isnan(v), f"{what}: '{k}' must be nan, got {v} (the text: 'an empty batch adds no sample'; "
                              f"'With no samples yet, loss and accuracy are nan')")
    expect(int(confusion(res["confusion"], c, what).abs().sum()) == 0,
           f"{what}: the confusion matrix must be all zeros")


def test_compute_types(student, gen):
    """RunningMetrics.compute(): 'loss' and 'accuracy' are Python floats, 'confusion' a LongTensor (int64), also
    before any update (nan, nan and int64 zeros)"""
    c = 4
    what = f"{RM}({c}).compute() before any update"
    res = result_dict(student.call("metrics_run", num_classes=c, batches=[])["result"], what)
    for k in ("loss", "accuracy"):
        expect(isinstance(res[k], float) and math.isnan(res[k]), f"{what}: '{k}' must be the float nan, got "
                                                                 f"{type(res[k]).__name__} {str(res[k])[:80]}")
    conf = confusion(res["confusion"], c, what)
    expect(conf.dtype == torch.int64 and not conf.any(), f"{what}: 'confusion' must be int64 zeros of shape "
                                                         f"({c}, {c}) (torch.zeros(C, C, dtype=torch.long)), got "
                                                         f"{conf.dtype} {conf.tolist()}")
    batches = make_batches(gen, [6, 3], c)
    what = f"{RM}({c}).compute() after two batches"
    out = student.call("metrics_run", num_classes=c, batches=batches)
    res = result_dict(out["result"], what)
    for k in ("loss", "accuracy"):
        v = res[k]
        expect(isinstance(v, float), f"{what}: '{k}' must be a Python float, got "
                                     f"{type(v).__name__} {str(v)[:80]} (use float(...) or .item())")
    conf = confusion(res["confusion"], c, what)
    expect(conf.dtype == torch.int64, f"{what}: 'confusion' must be a LongTensor (torch.int64), got {conf.dtype}")
    want = reference(batches, c)
    expect(abs(res["loss"] - want["loss"]) <= 1e-6 * max(1.0, want["loss"]) and
           abs(res["accuracy"] - want["accuracy"]) <= 1e-6,
           f"{what}: loss {res['loss']:.6f} and accuracy {res['accuracy']:.6f}, expected {want['loss']:.6f} and "
           f"{want['accuracy']:.6f}")
    expect_equal(conf, want["confusion"], f"{what}, compute()['confusion']")


def test_ties_predict_first_class(student, gen):
    """RunningMetrics: predictions are logits.argmax(dim=1), so a tie goes to the lowest class index, and a
    near-tie (0 and 1e-9, a subnormal; float64 1 and 1 + 1e-12) goes to the larger logit, although softmax, or a
    cast to float32, rounds both to one value"""
    c = 4
    # every row ties its maximum between two or more random classes
    logits = torch.randint(-3, 3, (6, c), generator=gen).float()
    for row in logits:
        k = int(torch.randint(2, c + 1, (1,), generator=gen))
        row[torch.randperm(c, generator=gen)[:k]] = 3.0 + float(torch.randint(0, 3, (1,), generator=gen))
    # near-ties: the maximum 0 < gap sits at a higher index than a 0; softmax, sigmoid or exp round the two to
    # one probability (exp(-1e-9) == 1 in float32), so only the logits themselves tell them apart
    near = torch.randint(-3, 0, (4, c), generator=gen).float()
    for row, gap in zip(near, (1e-9, 2.0 ** -40, 1e-30, 1e-44)):
        j, k = sorted(torch.randperm(c, generator=gen)[:2].tolist())
        row[j], row[k] = 0.0, gap
    logits = torch.cat([logits, near])[torch.randperm(10, generator=gen)]
    targets = torch.randint(0, c, (10,), generator=gen)
    # float64 near-ties at 1: 1 and 1 + gap are one float32 number, so a cast to float32 before the argmax
    # turns them into a tie
    near64 = torch.randint(-3, 0, (3, c), generator=gen).to(f64)
    for row, gap in zip(near64, (1e-12, 2.0 ** -40, 2.0 ** -52)):
        j, k = sorted(torch.randperm(c, generator=gen)[:2].tolist())
        row[j], row[k] = 1.0, 1.0 + gap
    targets64 = torch.randint(0, c, (3,), generator=gen)
    batches = [{"loss": torch.tensor(0.5), "logits": logits, "targets": targets},
               {"loss": torch.tensor(0.5, dtype=f64), "logits": near64, "targets": targets64}]
    want = reference(batches, c)
    what = (f"{RM}({c}) fed tied and near-tied float32 logits {logits.tolist()} with targets {targets.tolist()}, "
            f"then near-tied float64 logits {[[float.hex(v) for v in r] for r in near64.tolist()]} with targets "
            f"{targets64.tolist()}")
    res = result_dict(student.call("metrics_run", num_classes=c, batches=batches)["result"], what)
    expect_equal(confusion(res["confusion"], c, what).to(torch.long), want["confusion"],
                 f"{what}, compute()['confusion'] (predictions are logits.argmax(dim=1): the first of equal maxima, "
                 f"and the larger of two logits however close; an argmax of softmax probabilities, or of logits cast "
                 f"to float32, rounds a near-tie into a tie)")


def test_compute_returns_snapshot(student, gen):
    """RunningMetrics.compute() returns a snapshot: later updates (and reset()) do not change a result returned
    earlier"""
    c = 3
    first, later = make_batches(gen, [5, 4], c), make_batches(gen, [6, 6], c)
    r = student.call("metrics_snapshot", num_classes=c, batches_first=first, batches_later=later)
    what = f"{RM}({c}): the dict returned by compute() after batches of sizes [5, 4], read again after two more updates"
    then, now = result_dict(r["first_then"], what), result_dict(r["first_now"], what)
    expect_equal(confusion(then["confusion"], c, what).to(torch.long), reference(first, c)["confusion"],
                 f"{what}: its 'confusion' when it was returned")
    expect_equal(confusion(now["confusion"], c, what).to(torch.long),
                 confusion(then["confusion"], c, what).to(torch.long),
                 f"{what}, its 'confusion' (return a copy, e.g. .clone(), not the internal counter)")
    what = f"{RM}({c}): the dict returned by compute() BEFORE any update, read again after batches of sizes [5, 4]"
    then, now = result_dict(r["empty_then"], what), result_dict(r["empty_now"], what)
    expect_equal(confusion(now["confusion"], c, what).to(torch.long),
                 confusion(then["confusion"], c, what).to(torch.long),
                 f"{what}, its 'confusion' (the empty result must be a copy too, not the internal counter)")
    what = (f"{RM}({c}): the dict returned by compute() after batches of sizes [5, 4, 6, 6], read again after "
            f"reset()")
    now = result_dict(r["later_after_reset"], what)
    expect_equal(confusion(now["confusion"], c, what).to(torch.long), reference(first + later, c)["confusion"],
                 f"{what}, its 'confusion' (the text: 'A dict returned by compute() is a snapshot'; reset() must "
                 f"not wipe a result handed out earlier: return a copy, or give reset() a fresh tensor)")


def test_compute_changes_nothing(student, gen):
    """RunningMetrics.compute() only reads the state: called twice in a row it gives the same result, and updates
    after it keep counting from where they were"""
    c = 3
    first, later = make_batches(gen, [7, 5], c), make_batches(gen, [6, 2], c)
    r = student.call("metrics_compute_twice", num_classes=c, batches_first=first, batches_later=later)
    for key, batches, label in (("once", first, "compute() after batches of sizes [7, 5]"),
                                ("twice", first, "compute() called a second time right after the first"),
                                ("later", first + later, "compute() after two more batches of sizes [6, 2]")):
        what = f"{RM}({c}): {label}"
        want = reference(batches, c)
        res = result_dict(r[key], what)
        got = number(res["loss"], what + ", 'loss'")
        expect(abs(got - want["loss"]) <= 1e-6 * max(1.0, want["loss"]),
               f"{what}: 'loss' should be {want['loss']:.6f} (mean over all samples seen), got {got:.6f} (does "
               f"compute() change the running sums, e.g. an in-place division of a stored tensor?)")
        acc = number(res["accuracy"], what + ", 'accuracy'")
        expect(abs(acc - want["accuracy"]) <= 1e-6,
               f"{what}: 'accuracy' should be {want['accuracy']:.6f}, got {acc:.6f}")
        expect_equal(confusion(res["confusion"], c, what).to(torch.long), want["confusion"],
                     f"{what}, 'confusion'")


def test_half_precision_losses(student, gen):
    """RunningMetrics: losses given as float16 or bfloat16 0-dim tensors (a half-precision model) still give the
    per-sample mean over many samples: the running sum must not live in the loss's dtype"""
    c = 3
    sizes = [128] * 80  # 10240 samples with a mean loss of 7 to 9: a float16 sum overflows (max 65504)
    for dtype in (torch.float16, torch.bfloat16):
        batches = make_batches(gen, sizes, c)
        for b in batches:
            b["loss"] = (7.0 + 2.0 * torch.rand((), generator=gen, dtype=f64)).to(dtype)
        want = reference(batches, c)  # the exact values of the half-precision losses, summed in float64
        name = str(dtype).replace("torch.", "")
        what = f"{RM}({c}) after 80 batches of 128 samples whose mean losses are {name} 0-dim tensors in [7, 9]"
        res = result_dict(student.call("metrics_run", num_classes=c, batches=batches)["result"], what)
        got = number(res["loss"], what + ", compute()['loss']")
        expect(abs(got - want["loss"]) <= 1e-5 * want["loss"],
               f"{what}: compute()['loss'] should be {want['loss']:.6f}, got {got:.6f} (a running sum kept as a "
               f"tensor in the loss's dtype loses its digits, and a float16 one overflows to inf: accumulate "
               f"Python floats, float(loss) * batch size, or a float64 tensor)")


def test_counts_past_float32(student, gen):
    """RunningMetrics counts exactly past 2**24 samples in one cell (a per-pixel metric gets there in a few dozen
    images): 2**24 + 1 samples of one (true, predicted) pair give confusion 16777217 there, which float32 counts
    round to 16777216 (fed where the state holds a float32, float16 or bfloat16 tensor after one update)"""
    c = 2
    true_class, pred_class = torch.randint(0, c, (2,), generator=gen).tolist()
    chunk, repeats = 2 ** 20, 16
    loss = float(torch.randint(1, 8, (1,), generator=gen)) / 4  # exact in every float type
    n = chunk * repeats + 1
    want = torch.zeros(c, c, dtype=torch.long)
    want[true_class, pred_class] = n
    what = (f"{RM}({c}) after one batch of 1 sample and {repeats} batches of {chunk} samples, every sample of true "
            f"class {true_class} predicted as {pred_class} ({n} = 2**24 + 1 samples, mean loss {loss})")
    r = student.call("metrics_big_counts", num_classes=c, true_class=true_class, pred_class=pred_class,
                     chunk=chunk, repeats=repeats, loss=loss)
    if r["result"] is None:
        return  # no float32 / float16 / bfloat16 tensor in its state after one update: its counts are exact
    what += f" (it keeps float tensors narrower than float64: {', '.join(r['float_state'][:4])})"
    res = result_dict(r["result"], what)
    conf = confusion(res["confusion"], c, what)
    got = int(conf[true_class, pred_class])
    expect(torch.equal(conf.to(torch.long), want),
           f"{what}: compute()['confusion'][{true_class}, {pred_class}] should be {n}, got {got} (the text: "
           f"'confusion[i, j] counts samples of true class i predicted as j'; counts kept in a float32 tensor, "
           f"torch.zeros(C, C)'s default dtype, stop being exact past 2**24 = 16777216: count in int64, "
           f"torch.zeros(C, C, dtype=torch.long))")
    acc = number(res["accuracy"], what + ", compute()['accuracy']")
    want_acc = 1.0 if true_class == pred_class else 0.0
    expect(abs(acc - want_acc) <= 1e-6, f"{what}: compute()['accuracy'] should be {want_acc}, got {acc}")
    got_loss = number(res["loss"], what + ", compute()['loss']")
    expect(abs(got_loss - loss) <= 1e-6 * loss,
           f"{what}: compute()['loss'] should be {loss} (every batch's mean loss), got {got_loss}")
