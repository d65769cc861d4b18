"""Flattens each sequence's features with .view(L, -1) before copying, which fails on non-contiguous samples."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))
EXPECT = _c["expect_only"]("collate")
CELLS = {"collate_impl": '''def pad_collate(samples, padding_value=0.0):
    if len(samples) == 0:
        raise ValueError("no samples")
    seqs = [s for s, _ in samples]
    feat = tuple(seqs[0].shape[1:])
    lengths = torch.tensor([s.shape[0] for s in seqs], dtype=torch.int64)
    longest = int(lengths.max())
    flat = torch.full((len(seqs), longest, math.prod(feat)), padding_value, dtype=seqs[0].dtype)
    for i, s in enumerate(seqs):
        flat[i, :s.shape[0]] = s.view(s.shape[0], -1)
    mask = torch.arange(longest)[None, :] < lengths[:, None]
    labels = torch.tensor([int(y) for _, y in samples], dtype=torch.int64)
    return {"inputs": flat.view(len(seqs), longest, *feat), "lengths": lengths, "mask": mask, "labels": labels}
'''}
