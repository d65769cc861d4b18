"""pad_collate: padded batch, lengths, mask and labels, compared with torch's pad_sequence."""
import pytest
import torch
import hypothesis.configuration
from hypothesis import given, settings, strategies as st
from torch.nn.utils.rnn import pad_sequence

from course.checks import expect, expect_close, expect_equal, expect_tensor, fail

pytestmark = pytest.mark.task("collate")


def check_collate(res, seqs, labels, what, exact_dtype=True):
    padded, lengths, mask, lab = res
    want = pad_sequence(seqs, batch_first=True)
    want_len = torch.tensor([len(s) for s in seqs])
    padded = expect_tensor(padded, f"{what}: padded (first returned value)")
    if exact_dtype:
        expect_equal(padded.dtype, want.dtype, f"{what}: dtype of padded (must keep the sequences' dtype)")
    expect_close(padded, want, f"{what}: padded", atol=0, rtol=0)
    lengths = expect_tensor(lengths, f"{what}: lengths (second returned value)")
    expect(not lengths.is_floating_point() and lengths.dtype != torch.bool,
           f"{what}: lengths must be an integer tensor (int64), got {lengths.dtype}")
    expect_equal(lengths.to(torch.int64), want_len, f"{what}: lengths")
    mask = expect_tensor(mask, f"{what}: mask (third returned value)")
    expect_equal(mask.dtype, torch.bool, f"{what}: dtype of mask")
    want_mask = torch.arange(want.shape[1])[None, :] < want_len[:, None]
    if mask.shape == want_mask.shape and torch.equal(mask, ~want_mask):
        fail(f"{what}: mask is inverted: it must be True at real positions and False at padding")
    expect_equal(mask, want_mask, f"{what}: mask")
    lab = expect_tensor(lab, f"{what}: labels (fourth returned value)")
    expect_equal(lab.to(torch.int64), torch.tensor(labels), f"{what}: labels (in the order given)")


@pytest.mark.parametrize("lens,feat", [([3, 7, 1, 5], 4), ([6], 2), ([2, 2, 2], 3), ([9, 1, 4, 4, 8, 2], 1)])
def test_matches_pad_sequence(student, gen, lens, feat):
    """float64 sequences (L_i, F): padded matches pad_sequence(batch_first=True); lengths, mask, labels"""
    seqs = [torch.randn(L, feat, generator=gen, dtype=torch.float64) for L in lens]
    labels = torch.randint(0, 10, (len(lens),), generator=gen).tolist()
    res = student.call("collate_call", seqs=seqs, labels=labels)
    check_collate(res, seqs, labels, f"pad_collate(batch of sequences with lengths {lens} and {feat} features)")


def test_token_sequences_and_image_rows(student, gen):
    """1-D int64 token sequences and (L_i, 1, 28) float32 rows: any trailing shape and dtype"""
    lens = [5, 2, 8]
    seqs = [torch.randint(1, 100, (L,), generator=gen) for L in lens]
    res = student.call("collate_call", seqs=seqs, labels=[1, 2, 3])
    check_collate(res, seqs, [1, 2, 3], f"pad_collate(int64 token sequences of shapes {[(L,) for L in lens]})")
    seqs = [torch.rand(L, 1, 28, generator=gen) for L in lens]
    res = student.call("collate_call", seqs=seqs, labels=[0, 9, 4])
    check_collate(res, seqs, [0, 9, 4], "pad_collate(float32 sequences of shapes (L_i, 1, 28))")


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
    labels = torch.randint(0, 10, (len(lens),), generator=g).tolist()
    res = student.call("collate_call", seqs=seqs, labels=labels)
    check_collate(res, seqs, labels, f"pad_collate(sequences with lengths {lens})")


def test_unpadding_recovers_every_sequence(student, tmp_path):
    """property: padded[i, :lengths[i]] is sequence i, everything past it is zero, mask marks exactly that"""
    # Hypothesis caches files under the current folder (the notebook's folder when run from a notebook);
    # point it at a temporary folder for this check only.
    prev = getattr(hypothesis.configuration, "__hypothesis_home_directory", None)
    hypothesis.configuration.set_hypothesis_home_dir(tmp_path / ".hypothesis")
    try:
        _unpadding_property(student)
    finally:
        hypothesis.configuration.set_hypothesis_home_dir(prev)
