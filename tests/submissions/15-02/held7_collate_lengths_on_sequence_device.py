"""Wrong: "lengths: int64 tensor (B,), the true lengths (what pack_padded_sequence needs, on the CPU)".
This collate makes lengths (and the mask) on the sequences' device, so a batch collated from tensors
already on a GPU hands pack_padded_sequence lengths that are not on the CPU."""
from course.grading.class_run.submissions import edited

EXPECT = {"collate": "fail"}
CELLS = {"collate_impl": edited(
    "15-02", "collate_impl",
    ("    lengths = torch.tensor([s.shape[0] for s in seqs], dtype=torch.int64)\n",
     "    lengths = torch.tensor([s.shape[0] for s in seqs], dtype=torch.int64, device=seqs[0].device)\n"),
    ("    mask = torch.arange(padded.shape[1])[None, :]",
     "    mask = torch.arange(padded.shape[1], device=lengths.device)[None, :]"))}
