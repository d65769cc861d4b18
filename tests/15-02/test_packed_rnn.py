"""run_packed_rnn: a padded batch gives the same results as running every sequence alone."""
import pytest
import torch

from course.judge.expect import expect, expect_close, expect_equal, expect_tensor, fail

pytestmark = pytest.mark.task("packed_rnn")

CLS = {"RNN": torch.nn.RNN, "GRU": torch.nn.GRU, "LSTM": torch.nn.LSTM}


def make_rnn(gen, kind, inp, hid, layers, bidir):
    rnn = CLS[kind](inp, hid, num_layers=layers, bidirectional=bidir, batch_first=True, dtype=torch.float64)
    with torch.no_grad():
        for p in rnn.parameters():
            p.copy_(torch.rand(p.shape, generator=gen, dtype=torch.float64) * 1.2 - 0.6)
    return rnn


def reference(rnn, padded, lengths):
    """Each sequence alone: output (T, D*H) zero-padded, and the top layer's final state(s)."""
    d = 2 if rnn.bidirectional else 1
    outs, lasts = [], []
    with torch.no_grad():
        for i, L in enumerate(lengths.tolist()):
            o, h = rnn(padded[i:i + 1, :L])
            if isinstance(h, tuple):
                h = h[0]
            full = torch.zeros(padded.shape[1], o.shape[-1], dtype=o.dtype)
            full[:L] = o[0]
            outs.append(full)
            lasts.append(torch.cat([h[-d + k, 0] for k in range(d)]))
    return torch.stack(outs), torch.stack(lasts)


NON_FINITE = torch.tensor([float("nan"), float("inf"), float("-inf"), 1e308], dtype=torch.float64)


def run_case(student, gen, kind, layers, bidir, lengths, extra_t=0, inp=3, hid=5, non_finite=False):
    rnn = make_rnn(gen, kind, inp, hid, layers, bidir)
    lengths = torch.tensor(lengths, dtype=torch.int64)
    T = int(lengths.max()) + extra_t
    padded = torch.randn(len(lengths), T, inp, generator=gen, dtype=torch.float64)
    real = torch.arange(T)[None, :] < lengths[:, None]
    # Padding filled with large garbage (or NaN, +-inf and 1e308): it must not influence anything.
    garbage = NON_FINITE[torch.randint(0, 4, padded.shape, generator=gen)] if non_finite else \
        50 * torch.randn(padded.shape, generator=gen, dtype=torch.float64)
    padded = torch.where(real[..., None], padded, garbage)
    planted = ""
    if non_finite:
        # Held-out round 17: a NaN at a real step of the first sequence and +-inf at a real step of the longest
        # (the others stay finite). Run alone, a sequence carries them into its results (NaN from that step on,
        # a saturated gate after an inf), so the batch must too: the input is not to be "cleaned" (nan_to_num).
        longest = int(torch.argmax(lengths))
        inf = float("inf") if bool(torch.randint(0, 2, (1,), generator=gen)) else float("-inf")
        for i, val in ((0, float("nan")), (longest, inf)):
            t = int(torch.randint(0, int(lengths[i]), (1,), generator=gen))
            f = int(torch.randint(0, inp, (1,), generator=gen))
            padded[i, t, f] = val
            planted += f", {val} at real step {t} of sequence {i}"
    want_out, want_last = reference(rnn, padded, lengths)
    res = student.call("packed_rnn_call", kind=kind, input_size=inp, hidden_size=hid, num_layers=layers,
                       bidirectional=bidir, state=rnn.state_dict(), padded=padded, lengths=lengths)
    out, last = res
    what = (f"run_packed_rnn({'bidirectional ' if bidir else ''}{layers}-layer {kind}(hidden {hid}), padded "
            f"batch of shape {tuple(padded.shape)} with {'NaN, +-inf and 1e308' if non_finite else 'garbage'} in the "
            f"padding{planted}, lengths {lengths.tolist()})"
            + (" (output and last equal to the RNN's for each sequence run alone: a NaN or inf at a real step "
               "counts, as it does for the sequence alone)" if non_finite else ""))
    out = expect_tensor(out, f"{what}, output")
    last = expect_tensor(last, f"{what}, last")
    expect_equal(tuple(out.shape), tuple(want_out.shape), f"{what}: shape of output (B, padded.shape[1], D*H)")
    expect_equal(tuple(last.shape), tuple(want_last.shape), f"{what}: shape of last (B, D*H)")
    pad_vals = out.double()[~real]
    nonzero = pad_vals[pad_vals != 0]  # NaN included
    expect(nonzero.numel() == 0,
           f"{what}: output must be exactly zero at padded positions, found {nonzero.numel()} other values, e.g. "
           f"{nonzero[:3].tolist()} (largest magnitude {nonzero.abs().max().item() if nonzero.numel() else 0:.3g})")
    expect_close(out, want_out, f"{what}: output compared with running each sequence alone", atol=1e-9, rtol=1e-7)
    expect_close(last, want_last, f"{what}: last hidden state compared with running each sequence alone",
                 atol=1e-9, rtol=1e-7)


def test_gru_one_layer(student, gen):
    """1-layer GRU, unsorted lengths incl. 1 and the maximum"""
    run_case(student, gen, "GRU", 1, False, [4, 9, 1, 6, 9, 2])


def test_lstm_two_layers(student, gen):
    """2-layer LSTM: last is the top layer's h (not c) at each sequence's own last step"""
    run_case(student, gen, "LSTM", 2, False, [3, 7, 5, 1])


def test_bidirectional_gru(student, gen):
    """bidirectional 2-layer GRU: the backward direction must start at each sequence's true end"""
    run_case(student, gen, "GRU", 2, True, [2, 8, 5, 8, 3])


def test_extra_time_padding_kept(student, gen):
    """padded.shape[1] longer than every sequence (unequal lengths; then one sequence, and equal lengths): output keeps the input's time dimension, nothing of the padding is run"""
    run_case(student, gen, "RNN", 1, False, [3, 5, 2], extra_t=3)
    # Held-out round 28: every length equal and shorter than T (a batch of one with trailing padding, equal lengths):
    # nothing to sort, but still padding to leave out ("no packing needed when the lengths are equal" is wrong).
    run_case(student, gen, "GRU", 1, False, [3], extra_t=3)
    run_case(student, gen, "LSTM", 2, True, [4, 4, 4], extra_t=2, non_finite=True)


def _options_case(student, gen, kind, options, lengths, label):
    rnn = CLS[kind](batch_first=True, dtype=torch.float64, **options)
    with torch.no_grad():
        for p in rnn.parameters():
            p.copy_(torch.rand(p.shape, generator=gen, dtype=torch.float64) * 1.2 - 0.6)
    lengths = torch.tensor(lengths, dtype=torch.int64)
    T = int(lengths.max())
    inp = options["input_size"]
    padded = torch.randn(len(lengths), T, inp, generator=gen, dtype=torch.float64)
    real = torch.arange(T)[None, :] < lengths[:, None]
    padded = torch.where(real[..., None], padded, 50 * torch.randn(padded.shape, generator=gen, dtype=torch.float64))
    want_out, want_last = reference(rnn, padded, lengths)
    out, last = student.call("packed_rnn_options", kind=kind, options=options, state=rnn.state_dict(),
                             padded=padded, lengths=lengths)
    what = f"run_packed_rnn({label}, lengths {lengths.tolist()})"
    out = expect_tensor(out, f"{what}, output")
    last = expect_tensor(last, f"{what}, last")
    expect_equal(tuple(out.shape), tuple(want_out.shape), f"{what}: shape of output (B, T, D*H_out)")
    expect_equal(tuple(last.shape), tuple(want_last.shape), f"{what}: shape of last (B, D*H_out)")
    expect_close(out, want_out, f"{what}: output compared with running each sequence alone", atol=1e-9, rtol=1e-7)
    expect_close(last, want_last, f"{what}: last compared with each sequence's own final state", atol=1e-9,
                 rtol=1e-7)


def test_lstm_with_proj_size(student, gen):
    """an LSTM with proj_size (outputs and h have proj_size features): bidirectional, 2 layers"""
    _options_case(student, gen, "LSTM", dict(input_size=3, hidden_size=6, proj_size=2, num_layers=2,
                                             bidirectional=True), [4, 1, 3], "bidirectional 2-layer "
                  "LSTM(input 3, hidden 6, proj_size=2)")


@pytest.mark.parametrize("kind", ["GRU", "LSTM"])
def test_rnn_without_bias(student, gen, kind):
    """an RNN built with bias=False (no bias_ih_l0 / bias_hh_l0 parameters) works as well"""
    _options_case(student, gen, kind, dict(input_size=2, hidden_size=4, num_layers=1, bias=False,
                                           bidirectional=True), [2, 5, 3], f"bidirectional {kind}(input 2, "
                  f"hidden 4, bias=False)")


def test_gradients_flow_like_each_sequence_alone(student, gen):
    """gradients of output and last reach padded and every RNN parameter, as when each sequence runs alone"""
    options = dict(input_size=3, hidden_size=4, num_layers=1, bidirectional=True)
    rnn = CLS["LSTM"](batch_first=True, dtype=torch.float64, **options)
    with torch.no_grad():
        for p in rnn.parameters():
            p.copy_(torch.rand(p.shape, generator=gen, dtype=torch.float64) * 1.2 - 0.6)
    lengths = torch.tensor([3, 5, 1], dtype=torch.int64)
    padded = torch.randn(3, 5, 3, generator=gen, dtype=torch.float64)
    x = padded.clone().requires_grad_(True)
    outs, lasts = [], []
    for i, n in enumerate(lengths.tolist()):  # each sequence alone, with autograd
        o, (h, _) = rnn(x[i:i + 1, :n])
        outs.append(torch.cat([o[0], o.new_zeros(5 - n, o.shape[-1])]))
        lasts.append(torch.cat([h[-2, 0], h[-1, 0]]))
    out, last = torch.stack(outs), torch.stack(lasts)
    v_out = torch.randn(out.shape, generator=gen, dtype=torch.float64)
    v_last = torch.randn(last.shape, generator=gen, dtype=torch.float64)
    names = [n for n, _ in rnn.named_parameters()]
    want = torch.autograd.grad((out * v_out).sum() + (last * v_last).sum(), [x] + list(rnn.parameters()))
    res = student.call("packed_rnn_grads", kind="LSTM", options=options, state=rnn.state_dict(), padded=padded,
                       lengths=lengths, v_out=v_out, v_last=v_last)
    what = (f"<v, output> + <u, last> of run_packed_rnn(bidirectional LSTM(input 3, hidden 4), padded (3, 5, 3), "
            f"lengths {lengths.tolist()})")
    expect(res["requires_grad"], f"{what}: neither output nor last carries a gradient (was the RNN run under "
                                 f"torch.no_grad(), or the results detached?); they must be differentiable like "
                                 f"the RNN's own outputs")
    got = res["padded"]
    if got is None:
        fail(f"the gradient of {what} with respect to padded: none reached it")
    expect_close(got, want[0], f"the gradient of {what} with respect to padded (zero at padded positions)",
                 atol=1e-9, rtol=1e-7)
    for name, w in zip(names, want[1:]):
        g = res["params"].get(name)
        if g is None:
            fail(f"the gradient of {what} with respect to the RNN's {name}: none reached it")
        expect_close(g, w, f"the gradient of {what} with respect to the RNN's {name}", atol=1e-9, rtol=1e-7)


def test_inputs_left_unchanged(student, gen):
    """padded and lengths come back as they were (garbage in the padding included), with the right results"""
    options = dict(input_size=3, hidden_size=4, num_layers=1, bidirectional=True)
    rnn = CLS["GRU"](batch_first=True, dtype=torch.float64, **options)
    with torch.no_grad():
        for p in rnn.parameters():
            p.copy_(torch.rand(p.shape, generator=gen, dtype=torch.float64) * 1.2 - 0.6)
    lengths = torch.tensor([2, 6, 4], dtype=torch.int64)
    real = torch.arange(6)[None, :] < lengths[:, None]
    padded = torch.where(real[..., None], torch.randn(3, 6, 3, generator=gen, dtype=torch.float64),
                         50 * torch.randn(3, 6, 3, generator=gen, dtype=torch.float64))
    want_out, want_last = reference(rnn, padded, lengths)
    res = student.call("packed_rnn_inputs_after", kind="GRU", options=options, state=rnn.state_dict(),
                       padded=padded, lengths=lengths)
    what = f"run_packed_rnn(bidirectional GRU(input 3, hidden 4), padded (3, 6, 3) with garbage in the padding, " \
           f"lengths {lengths.tolist()})"
    changed = int((res["padded"] != padded).any(-1).sum())
    expect(changed == 0, f"{what} changed the caller's padded: {changed} of its 18 time steps hold other values "
                         f"afterwards (e.g. the padding was overwritten); leave padded as it was")
    expect_equal(res["lengths"].tolist(), lengths.tolist(), f"{what}: the caller's lengths afterwards")
    expect_close(expect_tensor(res["output"], f"{what}, output"), want_out,
                 f"{what}: output compared with running each sequence alone", atol=1e-9, rtol=1e-7)
    expect_close(expect_tensor(res["last"], f"{what}, last"), want_last,
                 f"{what}: last compared with running each sequence alone", atol=1e-9, rtol=1e-7)


# ------------------------------------------------ issue 39, held-out round 12

@pytest.mark.parametrize("kind,layers,bidir", [("GRU", 2, False), ("LSTM", 1, True)], ids=["GRU-2", "biLSTM"])
def test_non_finite_padding_changes_nothing(student, gen, kind, layers, bidir):
    """NaN, +-inf and 1e308 stored in the padding change nothing: output exactly zero there, results as each sequence alone (a NaN and an inf at real steps too)"""
    run_case(student, gen, kind, layers, bidir, [5, 2, 7, 1], extra_t=1, non_finite=True)


# ------------------------------------------------ issue 39, held-out round 14

def random_config(gen, batch):
    """A drawn RNN configuration: kind, 1-3 layers, uni- or bidirectional, hidden and input sizes from 1, and
    `batch` lengths from 1 to 6 (ties and 1 likely), with 0-2 extra time steps of padding."""
    kind = ["RNN", "GRU", "LSTM"][int(torch.randint(0, 3, (1,), generator=gen))]
    layers = int(torch.randint(1, 4, (1,), generator=gen))
    bidir = bool(torch.randint(0, 2, (1,), generator=gen))
    hid, inp = (int(v) for v in torch.randint(1, 5, (2,), generator=gen))
    lengths = torch.randint(1, 7, (batch,), generator=gen).tolist()
    extra_t = int(torch.randint(0, 3, (1,), generator=gen))
    return kind, layers, bidir, hid, inp, lengths, extra_t


def test_drawn_configurations_batch_of_one_and_subclasses(student, gen):
    """drawn RNN/GRU/LSTM configurations (1-3 layers, uni/bi, sizes from 1, a batch of one sequence first), each an instance of a subclass of nn.RNN/nn.GRU/nn.LSTM"""
    configs = [("LSTM", *random_config(gen, 1)[1:])]  # B = 1, an LSTM subclass: always
    configs += [random_config(gen, int(torch.randint(1, 6, (1,), generator=gen))) for _ in range(3)]
    for kind, layers, bidir, hid, inp, lengths, extra_t in configs:
        options = dict(input_size=inp, hidden_size=hid, num_layers=layers, bidirectional=bidir)
        rnn = CLS[kind](batch_first=True, dtype=torch.float64, **options)
        with torch.no_grad():
            for p in rnn.parameters():
                p.copy_(torch.rand(p.shape, generator=gen, dtype=torch.float64) * 1.2 - 0.6)
        n = torch.tensor(lengths, dtype=torch.int64)
        T = int(n.max()) + extra_t
        real = torch.arange(T)[None, :] < n[:, None]
        padded = torch.where(real[..., None], torch.randn(len(lengths), T, inp, generator=gen, dtype=torch.float64),
                             50 * torch.randn(len(lengths), T, inp, generator=gen, dtype=torch.float64))
        want_out, want_last = reference(rnn, padded, n)
        out, last = student.call("packed_rnn_options", kind=kind, options=options, state=rnn.state_dict(),
                                 padded=padded, lengths=n, subclass=True)
        what = (f"run_packed_rnn(My{kind}({inp}, {hid}, num_layers={layers}, bidirectional={bidir}, batch_first=True), "
                f"a subclass of nn.{kind}; padded of shape {tuple(padded.shape)}, lengths {lengths}) (any nn.RNN, "
                f"nn.GRU or nn.LSTM: an instance of a subclass is one too; any batch size, B = 1 included)")
        out = expect_tensor(out, f"{what}, output")
        last = expect_tensor(last, f"{what}, last")
        expect_equal(tuple(out.shape), tuple(want_out.shape), f"{what}: shape of output (B, padded.shape[1], D*H)")
        expect_equal(tuple(last.shape), tuple(want_last.shape), f"{what}: shape of last (B, D*H)")
        expect_close(out, want_out, f"{what}: output compared with running each sequence alone", atol=1e-9,
                     rtol=1e-7)
        expect_close(last, want_last, f"{what}: last compared with each sequence's own final state", atol=1e-9,
                     rtol=1e-7)


# ------------------------------------------------ issue 39, held-out round 21

def test_low_precision_rnn_keeps_its_dtype(student, gen):
    """a bfloat16 or float16 bidirectional LSTM or GRU (drawn), padded.shape[1] longer than every sequence: output and last in the RNN's own dtype, as each sequence alone"""
    # one drawn case (a low-precision RNN's first call costs a kernel set-up in each process)
    kind = ["GRU", "LSTM"][int(torch.randint(0, 2, (1,), generator=gen))]
    dtype = ["bfloat16", "float16"][int(torch.randint(0, 2, (1,), generator=gen))]
    options = dict(input_size=3, hidden_size=4, num_layers=1, bidirectional=True)
    rnn = CLS[kind](batch_first=True, dtype=getattr(torch, dtype), **options)
    with torch.no_grad():
        for p in rnn.parameters():
            p.copy_(torch.rand(p.shape, generator=gen, dtype=torch.float64) * 1.2 - 0.6)
    lengths = torch.tensor([3, 1, 4], dtype=torch.int64)
    T = int(lengths.max()) + 2
    real = torch.arange(T)[None, :] < lengths[:, None]
    padded = torch.where(real[..., None], torch.randn(3, T, 3, generator=gen, dtype=torch.float64),
                         50 * torch.randn(3, T, 3, generator=gen, dtype=torch.float64)).to(rnn.weight_ih_l0.dtype)
    want_out, want_last = reference(rnn, padded, lengths)
    out, last = student.call("packed_rnn_options", kind=kind, options=options, state=rnn.state_dict(),
                             padded=padded, lengths=lengths, dtype=dtype)
    what = (f"run_packed_rnn({'bidirectional ' if options['bidirectional'] else ''}{kind}(input 3, hidden 4, "
            f"dtype=torch.{dtype}), padded of shape {tuple(padded.shape)} (2 steps longer than every sequence), "
            f"lengths {lengths.tolist()}) ('equal to the RNN's output for each sequence run alone', which is "
            f"torch.{dtype}: a zero block built without dtype= is float32)")
    out = expect_tensor(out, f"{what}, output")
    last = expect_tensor(last, f"{what}, last")
    expect_equal(tuple(out.shape), tuple(want_out.shape), f"{what}: shape of output (B, padded.shape[1], D*H)")
    expect_equal(str(out.dtype), str(want_out.dtype), f"{what}: dtype of output")
    expect_equal(str(last.dtype), str(want_last.dtype), f"{what}: dtype of last")
    pad_vals = out.double()[~real]
    expect(bool((pad_vals == 0).all()), f"{what}: output must be exactly zero at padded positions")
    expect_close(out, want_out, f"{what}: output compared with running each sequence alone", atol=2e-2, rtol=2e-2)
    expect_close(last, want_last, f"{what}: last compared with each sequence's own final state", atol=2e-2,
                 rtol=2e-2)


# ------------------------------------------------ issue 39, held-out round 24

def test_results_on_the_rnns_device(student, gen):
    """output and last on the RNN's device: neither is, nor joins the RNN's results with, a tensor made by a factory without device= (on a GPU: the CPU)"""
    kind = ["GRU", "LSTM"][int(torch.randint(0, 2, (1,), generator=gen))]
    options = dict(input_size=3, hidden_size=4, num_layers=2, bidirectional=True)
    rnn = CLS[kind](batch_first=True, dtype=torch.float64, **options)
    with torch.no_grad():
        for p in rnn.parameters():
            p.copy_(torch.rand(p.shape, generator=gen, dtype=torch.float64) * 1.2 - 0.6)
    lengths = torch.tensor([3, 5, 1, 4], dtype=torch.int64)[torch.randperm(4, generator=gen)]
    T = int(lengths.max()) + 1
    real = torch.arange(T)[None, :] < lengths[:, None]
    padded = torch.where(real[..., None], torch.randn(4, T, 3, generator=gen, dtype=torch.float64),
                         50 * torch.randn(4, T, 3, generator=gen, dtype=torch.float64))
    want_out, want_last = reference(rnn, padded, lengths)
    r = student.call("packed_rnn_placement", kind=kind, options=options, state=rnn.state_dict(), padded=padded,
                     lengths=lengths)
    what = (f"run_packed_rnn(bidirectional 2-layer {kind}(input 3, hidden 4), padded of shape {tuple(padded.shape)}, "
            f"lengths {lengths.tolist()}) ('output and last come back in the RNN's own dtype, on its device')")
    expect(not r["unplaced"], f"{what}: {' and '.join(r['unplaced'])} is a tensor made by torch.zeros/empty/... "
                              f"without device=: for an RNN on a GPU it stays on the CPU (make it with device=, "
                              f"or new_zeros / zeros_like of the RNN's results)")
    expect(not r["joined"], f"{what}: {' and '.join(r['joined'])} joins the RNN's results with a tensor made by "
                            f"torch.zeros/empty/... without device=: for an RNN on a GPU that join raises (the two "
                            f"are on different devices)")
    expect_close(expect_tensor(r["output"], f"{what}, output"), want_out,
                 f"{what}: output compared with running each sequence alone", atol=1e-9, rtol=1e-7)
    expect_close(expect_tensor(r["last"], f"{what}, last"), want_last,
                 f"{what}: last compared with each sequence's own final state", atol=1e-9, rtol=1e-7)
