"""Wrong (device): padded must hold the sequences' values, on their device, as `pad_sequence` does; only
`lengths` is asked to be on the CPU. This version pads by hand into `torch.zeros(..., dtype=...)` without
`device=`, so sequences on a GPU come back padded on the CPU (and meta sequences raise on the copy).
Note: the text says "lengths ... on the CPU" and says nothing explicit about padded's device (ambiguous)."""
from course.grading.class_run.submissions import edited

EXPECT = {"collate": "fail"}
CELLS = {"collate_impl": edited(
    "15-02", "collate_impl",
    ("    padded = pad_sequence(seqs, batch_first=True, padding_value=0)\n",
     "    T = max(s.shape[0] for s in seqs)\n"
     "    padded = torch.zeros((len(seqs), T) + tuple(seqs[0].shape[1:]), dtype=seqs[0].dtype)\n"
     "    for i, s in enumerate(seqs):\n"
     "        padded[i, :s.shape[0]] = s\n"))}
