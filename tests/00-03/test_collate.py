"""Hidden checks of pad_collate (exercise 4) against torch.nn.utils.rnn.pad_sequence and the judge's own masks."""
import pytest
import torch
from hypothesis import HealthCheck, given, settings, strategies as st
from torch.nn.utils.rnn import pad_sequence

from course.judge.expect import expect, expect_equal, expect_raises, fail
from course.judge.strategies import relayout

pytestmark = pytest.mark.task("collate")
LABEL_KINDS = ["int", "int64", "int32", "int16", "uint8", "int8"]


def make(gen, lengths, features, dtype, layout):
    seqs = []
    for n in lengths:
        t = torch.randn((n, *features), generator=gen, dtype=torch.float64) * 5
        seqs.append(relayout(t.to(dtype), layout))
    return seqs


def expected(seqs, lengths, labels, padding_value):
    longest = max(lengths)
    if longest == 0:
        inputs = torch.empty((len(seqs), 0, *seqs[0].shape[1:]), dtype=seqs[0].dtype)
    else:
        inputs = pad_sequence([s.contiguous() for s in seqs], batch_first=True, padding_value=padding_value)
    mask = torch.tensor([[j < n for j in range(longest)] for n in lengths], dtype=torch.bool).reshape(len(seqs),
                                                                                                      longest)
    return {"inputs": inputs, "lengths": torch.tensor(lengths, dtype=torch.int64), "mask": mask,
            "labels": torch.tensor([v for _, v in labels], dtype=torch.int64)}


def drawn_padding(gen, dtype):
    """A padding value drawn from the check's seed: for float64 sequences one that float32 rounds (a padding built
    in the default dtype and converted afterwards is then off), for other float dtypes any float, for integer
    sequences an integer."""
    if not dtype.is_floating_point:
        return float(torch.randint(-9, 10, (), generator=gen))
    value = float(torch.randn((), generator=gen, dtype=torch.float64) * 3)
    while float(torch.tensor(value, dtype=torch.float32)) == value:
        value = value / 3 + 0.1
    return value


def check(res, want, what):
    if res.get("type") != "dict":
        fail(f"{what} returned a {res.get('type')}, not a dict")
    for key in ("inputs", "lengths", "mask", "labels"):
        got, w = res.get(key), want[key]
        if not isinstance(got, torch.Tensor):
            fail(f"{what}['{key}'] is {got!r}, not a tensor (is the key '{key}' there? keys: {res['keys']})")
        expect_equal(got.dtype, w.dtype, f"the dtype of {what}['{key}']")
        expect_equal(tuple(got.shape), tuple(w.shape), f"the shape of {what}['{key}']")
        if not torch.equal(got, w):
            fail(f"{what}['{key}']: expected {w.tolist()}, got {got.tolist()}")


def run(student, seqs, labels, padding_value=None):
    kwargs = {} if padding_value is None else {"padding_value": padding_value}
    return student.call("collate_run", seqs=seqs, labels=labels, **kwargs)


def describe(lengths, features, dtype, layout, labels, padding_value):
    pv = "" if padding_value is None else f", padding_value={padding_value}"
    return (f"pad_collate(samples{pv}) with sequence lengths {lengths}, features {features}, {dtype}, "
            f"{layout} sequences, labels {[k for k, _ in labels]}")


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lengths=st.lists(st.integers(0, 5), min_size=1, max_size=5), features=st.sampled_from([(), (3,), (2, 2)]),
       dtype=st.sampled_from([torch.float32, torch.float64, torch.int64, torch.bfloat16, torch.int32]),
       layout=st.sampled_from(["contiguous", "transposed", "strided", "offset"]),
       label_kinds=st.lists(st.sampled_from(LABEL_KINDS), min_size=5, max_size=5),
       padding_value=st.sampled_from([None, -1.0, 7.0, "drawn"]), seed=st.integers(0, 2**31 - 1))
def test_matches_pad_sequence(student, lengths, features, dtype, layout, label_kinds, padding_value, seed):
    """inputs equal pad_sequence(batch_first=True), lengths/mask/labels int64/bool of shape (B,)/(B, L_max)"""
    gen = torch.Generator().manual_seed(seed)
    if padding_value == "drawn":  # a float64 value float32 cannot hold (an int for int64 sequences)
        padding_value = drawn_padding(gen, dtype)
    seqs = make(gen, lengths, features, dtype, layout)
    labels = [(k, int(torch.randint(0, 100, (), generator=gen))) for k in label_kinds[:len(lengths)]]
    res = run(student, seqs, labels, padding_value)
    what = describe(lengths, features, dtype, layout, labels, padding_value)
    check(res, expected(seqs, lengths, labels, 0.0 if padding_value is None else padding_value), what)
    expect(not res["samples_changed"], f"{what} changed samples {res['samples_changed']} (clause: the samples are "
                                       "left unchanged)")
    expect(not res["aliases"], f"{what}['inputs'] shares memory with samples {res['aliases']} (clause: a new "
                               "tensor that shares no memory with any sample)")


@pytest.mark.parametrize("padding_value", [None, -1.0], ids=["default", "minus_one"])
def test_integer_sequences_keep_their_dtype(student, gen, padding_value):
    """int64 sequences (token ids): inputs equal pad_sequence(batch_first=True) and stay int64, with the default
    float padding value 0.0 too, exactly for an id past 2**53, and a real id equal to padding_value is not padding"""
    lengths = [3, 1, 4]
    seqs = make(gen, lengths, (), torch.int64, "contiguous")
    pad = 0.0 if padding_value is None else padding_value
    big = 2**53 + 1 + 2 * int(torch.randint(0, 1000, (), generator=gen))  # odd: a float64 detour rounds it
    seqs[0][1], seqs[2][2] = big, int(pad)
    labels = [("int", 1), ("int64", 2), ("uint8", 3)]
    res = run(student, seqs, labels, padding_value)
    check(res, expected(seqs, lengths, labels, pad),
          describe(lengths, (), torch.int64, "contiguous", labels, padding_value) +
          f" holding the id {big} (past 2**53) and a real id {int(pad)} equal to the padding value (clause: sample i "
          "at positions 0 .. L_i - 1 with the sequences' dtype; mask True exactly at the real positions)")


def test_labels_int64_whatever_dtype(student, gen):
    """labels come back as int64 from Python ints and 0-dim tensors of any integer dtype, exactly (values past 2**24 and 2**53 too, and uint16/uint32/uint64 beside Python ints)"""
    lengths = [2, 3, 1, 2, 1, 3]
    seqs = make(gen, lengths, (2,), torch.float32, "contiguous")
    highs = {"int": 10**6, "int64": 10**6, "int32": 10**6, "int16": 30000, "uint8": 256, "int8": 128}
    labels = [(k, int(torch.randint(0, highs[k], (), generator=gen))) for k in LABEL_KINDS]
    res = run(student, seqs, labels)
    check(res, expected(seqs, lengths, labels, 0.0), describe(lengths, (2,), torch.float32, "contiguous", labels,
                                                              None))
    # labels past float32's 2**24 and float64's 2**53 (odd, so that rounding through a float shows), exactly
    big = [("int", 2**24 + 1 + 2 * int(torch.randint(0, 1000, (), generator=gen))),
           ("int64", 2**53 + 1 + 2 * int(torch.randint(0, 1000, (), generator=gen))),
           ("int32", 2**31 - 1 - 2 * int(torch.randint(0, 1000, (), generator=gen)))]
    seqs = make(gen, [1, 2, 1], (2,), torch.float32, "contiguous")
    res = run(student, seqs, big)
    check(res, expected(seqs, [1, 2, 1], big, 0.0),
          describe([1, 2, 1], (2,), torch.float32, "contiguous", big, None) + f" with the labels {[v for _, v in big]} "
          "(beyond 2**24 and 2**53: each must come back exactly)")
    # the wide unsigned dtypes beside Python ints and int32: torch promotes none of uint16, uint32 and uint64 with
    # another dtype, so labels stacked (or put in one torch.tensor) before the conversion to int64 raise
    r = int(torch.randint(0, 1000, (), generator=gen))
    wide = [("int", 3 + r), ("uint16", 65535 - r), ("int32", 7 + r), ("uint32", 2**32 - 1 - 2 * r),
            ("uint64", 2**40 + 1 + 2 * r)]
    seqs = make(gen, [2, 1, 3, 1, 2], (2,), torch.float32, "contiguous")
    res = run(student, seqs, wide)
    check(res, expected(seqs, [2, 1, 3, 1, 2], wide, 0.0),
          describe([2, 1, 3, 1, 2], (2,), torch.float32, "contiguous", wide, None) + f" with the labels "
          f"{[v for _, v in wide]} (clause: each label is a Python int or a 0-dim integer tensor of any integer "
          "dtype; labels: an int64 tensor of shape (B,))")


@pytest.mark.parametrize("layout", ["contiguous", "transposed"])
def test_batch_of_one_is_a_copy(student, gen, layout):
    """a batch of one sample: shape (1, L, *features), a new tensor sharing no memory with the sample"""
    seqs = make(gen, [4], (3,), torch.float64, layout)
    labels = [("int32", 2)]
    res = run(student, seqs, labels, 0.5)
    what = describe([4], (3,), torch.float64, layout, labels, 0.5)
    check(res, expected(seqs, [4], labels, 0.5), what)
    expect(not res["aliases"], f"{what}['inputs'] shares memory with the sample (a view, not a new tensor)")


def test_no_memory_shared(student, gen):
    """inputs never shares memory with a sample, even when all have the same length"""
    seqs = make(gen, [3, 3, 3], (2,), torch.float32, "contiguous")
    labels = [("int", 1), ("int", 0), ("int", 2)]
    res = run(student, seqs, labels)
    what = describe([3, 3, 3], (2,), torch.float32, "contiguous", labels, None)
    check(res, expected(seqs, [3, 3, 3], labels, 0.0), what)
    expect(not res["aliases"], f"{what}['inputs'] shares memory with samples {res['aliases']}")


@pytest.mark.parametrize("lengths", [[0, 0], [0], [0, 3, 0]])
def test_empty_sequences(student, gen, lengths):
    """sequences of length 0: L_max is the longest length (0 when all are empty)"""
    seqs = make(gen, lengths, (3,), torch.float64, "contiguous")
    labels = [("int", int(torch.randint(0, 1000, (), generator=gen))) for _ in lengths]
    pad = drawn_padding(gen, torch.float64)  # float64 sequences: a padding value float32 cannot hold
    res = run(student, seqs, labels, pad)
    check(res, expected(seqs, lengths, labels, pad), describe(lengths, (3,), torch.float64, "contiguous", labels,
                                                              pad))


def test_samples_unchanged(student, gen):
    """the samples are left unchanged"""
    lengths = [int(n) for n in torch.randint(1, 6, (3,), generator=gen)]
    seqs = make(gen, lengths, (), torch.float64, "strided")
    labels = [("int64", 1), ("int", 5), ("uint8", 3)]
    pad = drawn_padding(gen, torch.float64)  # float64 sequences: a padding value float32 cannot hold
    res = run(student, seqs, labels, pad)
    what = describe(lengths, (), torch.float64, "strided", labels, pad)
    expect(not res["samples_changed"], f"{what} changed samples {res['samples_changed']}")
    check(res, expected(seqs, lengths, labels, pad), what)


def test_empty_list_raises(student, gen):
    """an empty list of samples raises ValueError"""
    seqs = make(gen, [2, 1], (2,), torch.float32, "contiguous")
    labels = [("int", int(torch.randint(0, 1000, (), generator=gen))) for _ in range(2)]
    res = student.call("collate_empty", seqs=seqs, labels=labels)
    expect_raises(res["empty"], "ValueError", "pad_collate([])")
    check(res["after"], expected(seqs, [2, 1], labels, 0.0),
          describe([2, 1], (2,), torch.float32, "contiguous", labels, None) + " called right after pad_collate([])")


@pytest.mark.parametrize("padding_value", [float("-inf"), float("inf")])
def test_non_finite_padding_value(student, gen, padding_value):
    """a padding_value of -inf or inf fills the padded positions and leaves the real ones as the samples hold them"""
    lengths = [int(n) for n in torch.randint(1, 5, (3,), generator=gen)]
    lengths[int(torch.randint(0, 3, (), generator=gen))] = 5  # at least one sample is padded
    dtype = torch.float64 if padding_value < 0 else torch.float32
    seqs = make(gen, lengths, (2,), dtype, "contiguous")
    labels = [("int", i) for i in range(3)]
    res = run(student, seqs, labels, padding_value)
    check(res, expected(seqs, lengths, labels, padding_value),
          describe(lengths, (2,), dtype, "contiguous", labels, padding_value) +
          " (clause: sample i at positions 0 .. L_i - 1 and padding_value everywhere else)")


@pytest.mark.parametrize("features", [(0,), (2, 0)])
def test_zero_size_features(student, gen, features):
    """sequences whose features shape holds a 0 give inputs of shape (B, L_max, *features)"""
    lengths = [int(n) for n in torch.randint(0, 4, (3,), generator=gen)]
    lengths[0] = 2
    seqs = make(gen, lengths, features, torch.float32, "contiguous")
    labels = [("int64", 4), ("int", 1), ("int8", 2)]
    res = run(student, seqs, labels, 1.5)
    check(res, expected(seqs, lengths, labels, 1.5),
          describe(lengths, features, torch.float32, "contiguous", labels, 1.5) +
          " (clause: each sequence is a tensor of shape (L_i, *features))")


@pytest.mark.parametrize("padding_value, dtype", [(-0.0, torch.float64), (0.0, torch.float32)],
                         ids=["minus_zero", "plus_zero"])
def test_signed_zero_padding_value(student, gen, padding_value, dtype):
    """a padding_value of -0.0 fills the padded positions with -0.0 (and 0.0 with +0.0), and a sample's own -0.0 and +0.0 keep their signs, as pad_sequence does"""
    lengths = [int(n) for n in torch.randint(1, 4, (3,), generator=gen)]
    lengths[int(torch.randint(0, 3, (), generator=gen))] = 5  # at least one sample is padded
    seqs = make(gen, lengths, (2,), dtype, "contiguous")
    seqs[0][0, 0], seqs[0][0, 1] = -0.0, 0.0  # real zeros of both signs: never padding, never rewritten
    labels = [("int", i) for i in range(3)]
    res = run(student, seqs, labels, padding_value)
    want = expected(seqs, lengths, labels, padding_value)
    what = describe(lengths, (2,), dtype, "contiguous", labels, padding_value) + \
        " with sample 0 starting [-0.0, 0.0] (clause: sample i at positions 0 .. L_i - 1 and padding_value everywhere else)"
    check(res, want, what)
    got = res["inputs"]
    wrong = (torch.signbit(got) != torch.signbit(want["inputs"])).nonzero().tolist()
    if wrong:
        b, j, f = wrong[0]
        exp = "-0.0" if torch.signbit(want["inputs"][b, j, f]) else "+0.0"
        where = "a padded position" if j >= lengths[b] else "a real position"
        fail(f"{what}['inputs'][{b}, {j}, {f}] ({where}): expected {exp} (the sign pad_sequence keeps), got "
             f"{got[b, j, f].item()!r}; {len(wrong)} entries have the wrong sign of zero")


def test_each_call_returns_new_tensors(student, gen):
    """a second call with the same shapes leaves what the first call returned as it was and shares no memory with it"""
    lengths, labels = [2, 4, 3], [("int", 3), ("int64", 1), ("int32", 2)]
    first = make(gen, lengths, (2,), torch.float32, "contiguous")
    second = make(gen, lengths, (2,), torch.float32, "contiguous")
    res = student.call("collate_twice", first=first, second=second, labels=labels)
    what = (describe(lengths, (2,), torch.float32, "contiguous", labels, None) + ", called twice on samples of the "
            "same lengths and other values")
    if res.get("type") != "dict":
        fail(f"{what}: a call returned a {res.get('type')}, not a dict")
    check(dict(res["before"], type="dict", keys=sorted(res["before"])), expected(first, lengths, labels, 0.0),
          f"{what}: the first call's result")
    changed = [k for k, v in res["before"].items() if not (isinstance(v, torch.Tensor) and isinstance(
        res["after"][k], torch.Tensor) and v.shape == res["after"][k].shape and torch.equal(v, res["after"][k]))]
    expect(not changed, f"{what}: the second call changed {changed} of the first call's result (clause: \"inputs\": a "
                        "new tensor ..., sharing no memory with what an earlier call returned; a buffer kept and "
                        "refilled across calls overwrites the earlier batch)")
    expect(not res["shared"], f"{what}: the two results share memory in {res['shared']} (clause: \"inputs\": a new "
                              "tensor, sharing no memory with what an earlier call returned)")


def test_inputs_on_the_sequences_device(student):
    """inputs is on the sequences' device (sequences on the meta device, a stand-in for a GPU)"""
    res = student.call("collate_on_meta", lengths=[2, 0, 3], features=[2])
    what = ("pad_collate(samples) with float32 sequences of lengths [2, 0, 3] and features (2,) on the meta device "
            "(a stand-in for a GPU)")
    if not res["judged"]:  # the code reads values the meta device does not hold, in either arrangement
        return
    expect(res["error"] is None, f"{what} raised {res['error']}; expected a batch on the sequences' device (clause: "
                                 "a new tensor with the sequences' dtype and device; torch.full(shape, ...) without "
                                 "device= is on the CPU)")
    expect_equal(res["device"], "meta", f"{what}: the device of ['inputs'] (clause: a new tensor with the sequences' "
                                        "dtype and device; torch.full(shape, ...) without device= is on the CPU)")
