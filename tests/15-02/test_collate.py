"""pad_collate: padded batch, lengths, mask and labels, compared with torch's pad_sequence."""
import pytest
import torch
import hypothesis.configuration
from hypothesis import given, settings, strategies as st
from torch.nn.utils.rnn import pad_sequence

from course.judge.adapter import StudentError
from course.judge.expect import expect, expect_close, expect_equal, expect_tensor, fail

pytestmark = pytest.mark.task("collate")


ALL = ("padded", "lengths", "mask", "labels")


def check_collate(res, seqs, labels, what, parts=ALL):
    """The values of the named parts of (padded, lengths, mask, labels); dtypes have checks of their own."""
    padded, lengths, mask, lab = res
    want = pad_sequence(seqs, batch_first=True)
    want_len = torch.tensor([len(s) for s in seqs])
    if "padded" in parts:
        padded = expect_tensor(padded, f"{what}: padded (first returned value)")
        expect_close(padded, want, f"{what}: padded", atol=0, rtol=0)
    if "lengths" in parts:
        lengths = expect_tensor(lengths, f"{what}: lengths (second returned value)")
        expect_equal(lengths.tolist(), want_len.tolist(), f"{what}: lengths")
    if "mask" in parts:
        mask = expect_tensor(mask, f"{what}: mask (third returned value)")
        want_mask = torch.arange(want.shape[1])[None, :] < want_len[:, None]
        if mask.shape == want_mask.shape and torch.equal(mask.bool(), ~want_mask):
            fail(f"{what}: mask is inverted: it must be True at real positions and False at padding")
        expect_equal(mask.tolist(), want_mask.tolist(), f"{what}: mask (as a list of lists of truth values)")
    if "labels" in parts:
        lab = expect_tensor(lab, f"{what}: labels (fourth returned value)")
        expect_equal(lab.tolist(), list(labels), f"{what}: labels (in the order given)")


def random_batch(gen, n=None, feat=2, dtype=torch.float64):
    """n sequences (3 to 6 if not given) of random lengths 1..8, and distinct labels in no sorted order."""
    n = n or int(torch.randint(3, 7, (1,), generator=gen))
    lens = torch.randint(1, 9, (n,), generator=gen).tolist()
    seqs = [torch.randn(L, feat, generator=gen, dtype=torch.float64).to(dtype) for L in lens]
    labels = torch.randperm(10, generator=gen)[:n].tolist()
    if labels == sorted(labels) or labels == sorted(labels, reverse=True):
        labels[0], labels[1] = labels[1], labels[0]
    return lens, seqs, labels


def dtype_of(res, k, what):
    names = ["padded", "lengths", "mask", "labels"]
    got = res[k] if isinstance(res, (list, tuple)) and len(res) == 4 else None
    t = expect_tensor(got, f"{what}: {names[k]} (returned value {k + 1} of 4)")
    return t.dtype


@pytest.mark.parametrize("lens,feat", [([3, 7, 1, 5], 4), ([6], 2), ([2, 2, 2], 3), ([9, 1, 4, 4, 8, 2], 1)])
def test_matches_pad_sequence(student, gen, lens, feat):
    """float64 sequences (L_i, F): padded matches pad_sequence(batch_first=True); lengths, mask, labels"""
    seqs = [torch.randn(L, feat, generator=gen, dtype=torch.float64) for L in lens]
    labels = torch.randint(0, 10, (len(lens),), generator=gen).tolist()
    res = student.call("collate_call", seqs=seqs, labels=labels)
    check_collate(res, seqs, labels, f"pad_collate(batch of sequences with lengths {lens} and {feat} features)",
                  parts=("padded",))


def test_lengths_mask_and_labels(student, gen):
    """lengths are the true lengths, mask is True exactly at real positions, labels keep the batch order"""
    lens, seqs, labels = random_batch(gen, 5)
    res = student.call("collate_call", seqs=seqs, labels=labels)
    what = f"pad_collate(batch of sequences with lengths {lens})"
    check_collate(res, seqs, labels, what, parts=("lengths",))
    check_collate(res, seqs, labels, what, parts=("mask",))


def test_labels_keep_the_batch_order(student, gen):
    """labels come back in the order of the batch (nothing is sorted)"""
    lens, seqs, labels = random_batch(gen, 4)
    res = student.call("collate_call", seqs=seqs, labels=labels)
    check_collate(res, seqs, labels, f"pad_collate(batch of sequences with lengths {lens}, labels {labels})",
                  parts=("labels",))


def test_token_sequences_and_image_rows(student, gen):
    """1-D int64 token sequences and (L_i, 1, 28) float32 rows: any trailing shape and dtype"""
    lens = [5, 2, 8]
    seqs = [torch.randint(1, 100, (L,), generator=gen) for L in lens]
    res = student.call("collate_call", seqs=seqs, labels=[1, 2, 3])
    check_collate(res, seqs, [1, 2, 3], f"pad_collate(int64 token sequences of shapes {[(L,) for L in lens]})",
                  parts=("padded",))
    seqs = [torch.rand(L, 1, 28, generator=gen) for L in lens]
    res = student.call("collate_call", seqs=seqs, labels=[0, 9, 4])
    check_collate(res, seqs, [0, 9, 4], "pad_collate(float32 sequences of shapes (L_i, 1, 28))", parts=("padded",))


def test_real_steps_of_zeros_count(student, gen):
    """steps whose values are all zero are real steps: lengths come from the sequences, not from the data"""
    seqs = [torch.randn(4, 3, generator=gen, dtype=torch.float64) for _ in range(3)]
    seqs[0][3] = 0.0                      # the last real step of sequence 0 is all zeros
    seqs[1][1:3] = 0.0                    # zeros in the middle
    seqs[2] = torch.zeros(2, 3, dtype=torch.float64)   # a sequence made only of zeros
    seqs.append(torch.zeros(6, 3, dtype=torch.float64))  # the longest one is all zeros too
    labels = [3, 0, 7, 1]
    res = student.call("collate_call", seqs=seqs, labels=labels)
    check_collate(res, seqs, labels, "pad_collate(sequences of lengths [4, 4, 2, 6] whose steps include "
                                     "all-zero vectors; the last two are entirely zero)",
                  parts=("padded", "lengths", "mask"))


def test_lengths_are_int64(student, gen):
    """lengths is an int64 tensor"""
    lens, seqs, labels = random_batch(gen, dtype=torch.float32)
    res = student.call("collate_call", seqs=seqs, labels=labels)
    what = f"pad_collate(sequences of lengths {lens})"
    expect_equal(dtype_of(res, 1, what), torch.int64, f"{what}: dtype of lengths")
    check_collate(res, seqs, labels, what, parts=("lengths",))


def test_mask_is_bool(student, gen):
    """mask is a bool tensor"""
    lens, seqs, labels = random_batch(gen, dtype=torch.float32)
    res = student.call("collate_call", seqs=seqs, labels=labels)
    what = f"pad_collate(sequences of lengths {lens})"
    expect_equal(dtype_of(res, 2, what), torch.bool, f"{what}: dtype of mask")
    check_collate(res, seqs, labels, what, parts=("mask",))


def test_labels_are_int64(student, gen):
    """labels is an int64 tensor holding every label exactly (Python int labels past 2**53 and near 2**63 included)"""
    lens, seqs, labels = random_batch(gen, dtype=torch.float32)
    # Round 21's contract walk: labels that are large ints (hashed ids) stay exact; a float64 detour rounds them
    labels[0] = 2**53 + 1 + 2 * int(torch.randint(0, 1000, (1,), generator=gen))
    labels[-1] = 2**63 - 1 - int(torch.randint(0, 1000, (1,), generator=gen))
    res = student.call("collate_call", seqs=seqs, labels=labels)
    what = (f"pad_collate({len(lens)} sequences with int labels {labels}) ('labels: int64 tensor (B,)': any int "
            f"an int64 holds comes back exactly)")
    expect_equal(dtype_of(res, 3, what), torch.int64, f"{what}: dtype of labels")
    check_collate(res, seqs, labels, what, parts=("labels",))


def test_lengths_on_the_cpu(student, gen):
    """sequences on another device (meta, a GPU stand-in): padded stays on their device, lengths is on the CPU, as pack_padded_sequence needs"""
    lens = torch.randint(1, 7, (int(torch.randint(2, 5, (1,), generator=gen)),), generator=gen).tolist()
    res = student.call("collate_on_meta", lens=lens, feat=3)
    if res["home"] == "meta":
        what = f"pad_collate(sequences of lengths {lens} on the meta device)"
        expect_equal(res["raw"][1], "cpu", f"{what}: the device of lengths (the second returned value)")
    else:  # the code needed the sequences' values: CPU sequences, meta the default device (a made tensor's home)
        what = (f"pad_collate(sequences of lengths {lens} on the CPU while the default device is meta, a GPU "
                f"stand-in)")
    expect_equal(res["relative"][0], "meta", f"{what}: the device of padded (the sequences' own device; \"meta\" "
                                             f"stands for it)")


@pytest.mark.parametrize("label_dtype", ["int32", "uint8", "mixed"])
def test_tensor_labels_become_int64(student, gen, label_dtype):
    """0-d integer tensor labels (int32, uint8; or mixed with Python ints in one batch) give int64 labels with their values"""
    lens, seqs, labels = random_batch(gen, dtype=torch.float32)
    kinds = label_dtype
    if label_dtype == "mixed":
        # Contract walk, round 17: each label is an int or a 0-d tensor, whatever the others are (a tensor first)
        kinds = [["int16", None, "int64", "int8"][k % 4] for k in range(len(labels))]
    res = student.call("collate_call", seqs=seqs, labels=labels, label_dtype=kinds)
    given = (f"0-d {label_dtype} tensors" if label_dtype != "mixed" else
             f"a mix, in turn {', '.join('a Python int' if k is None else f'a 0-d {k} tensor' for k in kinds)} "
             f"(each label is a Python int or a 0-d tensor of any integer dtype)")
    what = f"pad_collate({len(lens)} sequences with labels given as {given}: {labels})"
    expect_equal(dtype_of(res, 3, what), torch.int64, f"{what}: dtype of labels")
    check_collate(res, seqs, labels, what, parts=("labels",))


@pytest.mark.parametrize("dtype", [torch.int64, torch.float64, torch.uint8], ids=str)
def test_padded_keeps_the_sequences_dtype(student, gen, dtype):
    """padded has the dtype of the sequences"""
    seqs = [torch.randint(1, 100, (L, 2), generator=gen).to(dtype) for L in (2, 5)]
    what = f"pad_collate(two {str(dtype).replace('torch.', '')} sequences)"
    res = student.call("collate_call", seqs=seqs, labels=[0, 1])
    padded = expect_tensor(res[0] if isinstance(res, (list, tuple)) and len(res) == 4 else None,
                           f"{what}: padded (the first of the four returned values)")
    expect_equal(tuple(padded.shape), (2, 5, 2), f"{what}: shape of padded")
    expect_equal(padded.dtype, dtype, f"{what}: dtype of padded (must keep the sequences' dtype)")
    check_collate(res, seqs, [0, 1], what, parts=("padded",))


def test_in_dataloader_pads_per_batch(student, gen):
    """as DataLoader(collate_fn=pad_collate), each batch is padded to its own longest sequence"""
    lens = [2, 3, 2, 9, 1, 4, 4, 5]
    seqs = [torch.randn(L, 3, generator=gen, dtype=torch.float64) for L in lens]
    labels = list(range(8))
    batches = student.call("collate_in_loader", seqs=seqs, labels=labels, batch_size=3)
    expect_equal(len(batches), 3, "number of batches from DataLoader(8 samples, batch_size=3, collate_fn=pad_collate)")
    for k, res in enumerate(batches):
        sl = slice(3 * k, 3 * k + 3)
        check_collate(res, seqs[sl], labels[sl], f"DataLoader(..., collate_fn=pad_collate), batch {k} "
                                                 f"(lengths {lens[sl]})")


@settings(max_examples=15, deadline=None, database=None)
@given(lens=st.lists(st.integers(1, 12), min_size=1, max_size=7), seed=st.integers(0, 2**31 - 1))
def _unpadding_property(student, lens, seed):
    g = torch.Generator().manual_seed(seed)
    seqs = [torch.randn(L, 2, generator=g, dtype=torch.float64) for L in lens]
    for s in seqs:  # some real steps are all zeros, including possibly the last one
        s[torch.rand(len(s), generator=g) < 0.3] = 0.0
    labels = torch.randint(0, 10, (len(lens),), generator=g).tolist()
    res = student.call("collate_call", seqs=seqs, labels=labels)
    check_collate(res, seqs, labels, f"pad_collate(sequences with lengths {lens})", parts=("padded", "lengths", "mask"))


def test_unpadding_recovers_every_sequence(student, tmp_path):
    """property: padded[i, :lengths[i]] is sequence i (some steps all zero), the rest zero, mask marks exactly that"""
    # Hypothesis caches files under the current folder (the notebook's folder when run from a notebook);
    # point it at a temporary folder for this check only.
    prev = getattr(hypothesis.configuration, "__hypothesis_home_directory", None)
    hypothesis.configuration.set_hypothesis_home_dir(tmp_path / ".hypothesis")
    try:
        _unpadding_property(student)
    finally:
        hypothesis.configuration.set_hypothesis_home_dir(prev)


def test_non_contiguous_sequences(student, gen):
    """sequences that are non-contiguous views ((L_i, 2, 3), last two dimensions transposed in memory) pad like any other"""
    lens = [3, 1, 4]
    seqs = [torch.randn(L, 2, 3, generator=gen, dtype=torch.float64) for L in lens]
    res = student.call("collate_call", seqs=seqs, labels=[2, 0, 1], strided=True)
    check_collate(res, seqs, [2, 0, 1], f"pad_collate(float64 sequences of shapes {[(L, 2, 3) for L in lens]} "
                                        f"that are non-contiguous views, as x.permute(...) gives)")


# ------------------------------------------------ issue 39, held-out round 12

def _extreme_sequences(gen, dtype, lens):
    """Sequences (L_i, 2) of `dtype` holding that dtype's edge values: int64 extremes and neighbours of 2**53 (float64
    rounds them), float64 infinities, NaN, -0.0 and the smallest subnormal, complex values with imaginary parts."""
    n = sum(lens) * 2
    if dtype == "int64":
        pool = torch.tensor([2**63 - 1, -2**63, 2**53 + 1, -(2**53) - 3, 2**62 + 7, 1, -1, 0], dtype=torch.int64)
    elif dtype == "float64":
        pool = torch.tensor([float("inf"), float("-inf"), float("nan"), -0.0, 5e-324, -1.7976931348623157e308,
                             1.5, -2.25], dtype=torch.float64)
    elif dtype == "complex128":
        pool = torch.tensor([1 + 2j, -3.5j, complex("inf+1j"), 2.0 - 0.5j, 0j, -1 - 1j], dtype=torch.complex128)
    else:  # bool
        pool = torch.tensor([True, False, True], dtype=torch.bool)
    idx = torch.randint(0, len(pool), (n,), generator=gen)
    idx[:len(pool)] = torch.randperm(len(pool), generator=gen)  # every edge value occurs
    flat = pool[idx]
    out, k = [], 0
    for L in lens:
        out.append(flat[k:k + 2 * L].reshape(L, 2).clone())
        k += 2 * L
    return out


def _same_values(got, want):
    """Exactly the same values, NaN where NaN is expected and the sign of every zero kept."""
    if got.shape != want.shape or got.dtype != want.dtype:
        return False
    if want.is_floating_point():
        nan = torch.isnan(want)
        return bool(torch.equal(torch.isnan(got), nan) and torch.equal(got[~nan], want[~nan])
                    and torch.equal(torch.signbit(got[~nan]), torch.signbit(want[~nan])))
    return bool(torch.equal(got, want))


@pytest.mark.parametrize("dtype", ["int64", "float64", "complex128", "bool"])
def test_edge_values_of_any_dtype_come_back_exactly(student, gen, dtype):
    """any dtype, values and all: int64 past 2**53, inf/NaN/-0.0, complex and bool sequences pad exactly as pad_sequence does"""
    lens = torch.randint(1, 6, (3,), generator=gen).tolist()
    lens[int(torch.randint(0, 3, (1,), generator=gen))] = 6
    seqs = _extreme_sequences(gen, dtype, lens)
    res = student.call("collate_call", seqs=seqs, labels=[2, 0, 1])
    what = (f"pad_collate(three {dtype} sequences of shapes {[(L, 2) for L in lens]} holding that dtype's edge values, "
            f"e.g. {seqs[0].flatten()[:4].tolist()})")
    padded = expect_tensor(res[0] if isinstance(res, (list, tuple)) and len(res) == 4 else None,
                           f"{what}: padded (the first of the four returned values)")
    want = pad_sequence(seqs, batch_first=True)
    expect_equal(padded.dtype, want.dtype, f"{what}: dtype of padded (must keep the sequences' dtype)")
    expect_equal(tuple(padded.shape), tuple(want.shape), f"{what}: shape of padded")
    if not _same_values(padded, want):
        diff = [(i, t) for i in range(len(lens)) for t in range(want.shape[1])
                if not _same_values(padded[i, t], want[i, t])]
        i, t = diff[0]
        fail(f"{what}: padded differs from pad_sequence(batch_first=True) at {len(diff)} steps; first at sequence {i}, "
             f"step {t}: expected {want[i, t].tolist()}, got {padded[i, t].tolist()} (a copy through another dtype "
             f"rounds, drops imaginary parts or loses the sign of zero: pad in the sequences' own dtype)")


# ------------------------------------------------ issue 39, held-out round 24

def test_an_earlier_batch_stays_as_returned(student, gen):
    """each call's tensors are its own: collating the next batch (same shapes) leaves an earlier batch as it was returned"""
    lens = torch.randint(1, 6, (3,), generator=gen).tolist()
    lens[int(torch.randint(0, 3, (1,), generator=gen))] = 6
    first = [torch.randn(L, 2, generator=gen, dtype=torch.float64) for L in lens]
    perm = torch.randperm(3, generator=gen).tolist()
    second = [torch.randn(lens[k], 2, generator=gen, dtype=torch.float64) + 10 for k in perm]  # same B, T, shapes
    r = student.call("collate_twice", first=first, second=second, labels=[2, 0, 1])
    what = (f"pad_collate(batch of float64 sequences with lengths {lens}), then pad_collate(another batch of the "
            f"same shapes, lengths {[lens[k] for k in perm]}) (a DataLoader holds several batches at once: each "
            f"call's tensors are its own)")
    check_collate(r["right_after"], first, [2, 0, 1], f"{what}: the first batch right after its call")
    check_collate(r["later"], first, [2, 0, 1], f"{what}: the first batch after the second call (it must be as it "
                                                 f"was returned, not refilled with the next batch)")


# ------------------------------------------------ issue 39, held-out round 27

def _dtype_sequences(gen, dtype, lens):
    """Sequences (L_i, 2) of `dtype` (by name) holding its edge values; for uint16/32/64 the signed integers of the
    same width that carry their bits (-1 is the largest value, the minimum has the top bit set)."""
    n = 2 * sum(lens)
    if dtype in ("uint16", "uint32", "uint64", "int8", "int16", "int32"):
        carrier = {"uint16": torch.int16, "uint32": torch.int32, "uint64": torch.int64}.get(dtype,
                                                                                           getattr(torch, dtype))
        info = torch.iinfo(carrier)
        pool = torch.tensor([info.max, info.min, -1, 1, 0, info.max - 2], dtype=torch.int64).to(carrier)
    elif dtype in ("float16", "bfloat16"):
        dt = getattr(torch, dtype)
        info = torch.finfo(dt)
        pool = torch.tensor([float("inf"), float("-inf"), float("nan"), -0.0, info.max, -info.max, info.tiny,
                             info.smallest_normal / 4, 1.5], dtype=torch.float32).to(dt)
    else:  # complex64
        pool = torch.tensor([1 + 2j, -3.5j, complex("inf-1j"), 0j, complex(-0.0, -0.0), 3.4e38 + 1e-45j],
                            dtype=torch.complex64)
    idx = torch.randint(0, len(pool), (n,), generator=gen)
    idx[:len(pool)] = torch.randperm(len(pool), generator=gen)
    flat = pool[idx]
    out, k = [], 0
    for L in lens:
        out.append(flat[k:k + 2 * L].reshape(L, 2).clone())
        k += 2 * L
    return out


def test_every_other_dtype_pads_exactly(student, gen):
    """any dtype: uint16, uint32 and uint64, int8/16/32, float16, bfloat16 and complex64 sequences (edge values included) pad exactly as pad_sequence does"""
    for dtype in ("uint16", "uint32", "uint64", "int8", "int16", "int32", "float16", "bfloat16", "complex64"):
        lens = torch.randint(1, 5, (3,), generator=gen).tolist()
        lens[int(torch.randint(0, 3, (1,), generator=gen))] = 5
        seqs = _dtype_sequences(gen, dtype, lens)
        what = (f"pad_collate(three {dtype} sequences of shapes {[(L, 2) for L in lens]} holding that dtype's edge "
                f"values) ('each sequence a tensor of shape (L_i, *) (any trailing shape, any dtype; the padded "
                f"tensor keeps that dtype and every value exactly)'; expected what pad_sequence gives)")
        try:
            r = student.call("collate_any_dtype", seqs=seqs, dtype=dtype)
        except StudentError as e:
            fail(f"{what}: {e}")
        expect_equal(r["dtype"], dtype, f"{what}: dtype of padded")
        padded = expect_tensor(r["res"][0], f"{what}: padded (the first of the four returned values)")
        want = pad_sequence(seqs, batch_first=True)  # the carriers' bits: the same for the unsigned dtypes
        expect_equal(tuple(padded.shape), tuple(want.shape), f"{what}: shape of padded")
        same = _same_values(padded, want) if not want.is_complex() else bool(
            torch.equal(torch.view_as_real(padded), torch.view_as_real(want))
            and torch.equal(torch.signbit(torch.view_as_real(padded)), torch.signbit(torch.view_as_real(want))))
        if not same:
            fail(f"{what}: padded differs from pad_sequence(batch_first=True): expected "
                 f"{want.reshape(len(lens), -1).tolist()}, got {padded.reshape(len(lens), -1).tolist()}"
                 f"{' (values shown as the signed integers of the same bits)' if dtype.startswith('uint') else ''}")
        check_collate(r["res"], seqs, list(range(len(lens))), what, parts=("lengths", "mask", "labels"))


def test_trailing_dimension_of_size_zero(student, gen):
    """any trailing shape, a zero-sized one included: sequences of shape (L_i, 0) and (L_i, 3, 0) give padded (B, T, 0) and (B, T, 3, 0), lengths, mask, labels"""
    for trailing in ((0,), (3, 0)):
        lens = torch.randint(1, 6, (3,), generator=gen).tolist()
        seqs = [torch.zeros((L,) + trailing) for L in lens]
        labels = torch.randperm(10, generator=gen)[:3].tolist()
        what = (f"pad_collate(float32 sequences of shapes {[(L,) + trailing for L in lens]}: no features per step) "
                f"('each sequence a tensor of shape (L_i, *) (any trailing shape ...)'; expected padded of shape "
                f"{(3, max(lens)) + trailing}, as pad_sequence gives)")
        try:
            res = student.call("collate_call", seqs=seqs, labels=labels)
        except StudentError as e:
            fail(f"{what}: {e}")
        padded = expect_tensor(res[0], f"{what}: padded (the first of the four returned values)")
        expect_equal(tuple(padded.shape), (3, max(lens)) + trailing, f"{what}: shape of padded")
        expect_equal(padded.dtype, torch.float32, f"{what}: dtype of padded")
        # padded holds no values to compare (and comparing empty tensors costs the judge seconds the first time)
        check_collate(res, seqs, labels, what, parts=("lengths", "mask", "labels"))


def test_a_long_sequence(student, gen):
    """T = max length in this batch however long: a batch with a sequence of several thousand steps (lengths, mask (B, T), padded)"""
    long = int(torch.randint(4100, 6001, (1,), generator=gen))
    lens = [3, long, 1]
    seqs = [torch.randn(L, 1, generator=gen) for L in lens]
    labels = [4, 1, 7]
    what = (f"pad_collate(three float32 sequences of lengths {lens}) ('T = max length in this batch': the lengths "
            f"have no upper bound; mask is a bool tensor (B, T))")
    try:
        res = student.call("collate_call", seqs=seqs, labels=labels)
    except StudentError as e:
        fail(f"{what}: {e}")
    mask = expect_tensor(res[2], f"{what}: mask (the third returned value)")
    expect_equal(tuple(mask.shape), (3, long), f"{what}: shape of mask")
    check_collate(res, seqs, labels, what)


# ------------------------------------------------ held-out round 28

@pytest.mark.parametrize("n", [1, 3], ids=["batch_of_one", "three"])
def test_batch_shares_no_memory_with_the_samples(student, gen, n):
    """each call's tensors are its own, also for a batch of one: overwriting the samples passed in leaves the batch as returned, and overwriting the batch leaves the samples"""
    lens = torch.randint(1, 6, (n,), generator=gen).tolist()
    seqs = [torch.randn(L, 2, generator=gen, dtype=torch.float64) for L in lens]
    labels = torch.randint(0, 10, (n,), generator=gen).tolist()
    r = student.call("collate_owns_its_tensors", seqs=seqs, labels=labels)
    what = (f"pad_collate(a batch of {n} float64 sequence{'s' if n > 1 else ''} with lengths {lens}, labels as 0-d "
            f"int64 tensors {labels}) (each call's tensors are its own: new tensors, sharing memory with none of "
            f"the samples passed in")
    check_collate(r["right_after"], seqs, labels, f"{what}): the batch right after the call")
    check_collate(r["later"], seqs, labels, f"{what}): the batch after every sequence and label passed in was "
                                            f"overwritten in place (as a data set that refills its buffers does); "
                                            f"it must be as it was returned, not a view of the samples")
    if r["write_error"] is not None:
        fail(f"{what}): writing into the returned tensors in place (as a training step that normalises its batch "
             f"does) raised {r['write_error']}")
    for k, (seq_kept, label_kept) in enumerate(r["inputs_kept"]):
        expect(seq_kept, f"{what}): after the returned tensors were overwritten in place, sequence {k} passed in "
                         f"had changed too: padded (or another result) is a view of it, so a step that writes "
                         f"into the batch rewrites the data set")
        expect(label_kept, f"{what}): after the returned tensors were overwritten in place, label {k} passed in "
                           f"(a 0-d tensor) had changed too: labels is a view of it")
