"""Wrong: "`mask`: bool tensor `(B, T)`, `True` at real positions" with "`T = max length in this batch`" (the
lengths `L_i >= 1` have no upper bound). This version builds the mask from a module-level `torch.arange(512)`
(made once, to save an allocation per batch): `mask = _STEPS[:T] < lengths[:, None]`. For a batch whose longest
sequence has more than 512 steps the slice stops at 512: the mask has shape (B, 512), not (B, T), and the steps
past 512 are not marked real."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "pass", "balanced": "pass", "collate": "fail", "packed_rnn": "pass", "stream": "pass"}
CELLS = {"collate_impl": edited(
    "15-02", "collate_impl",
    ("def pad_collate(batch):\n",
     "_STEPS = torch.arange(512)\n\n\ndef pad_collate(batch):\n"),
    ("    mask = torch.arange(padded.shape[1])[None, :] < lengths[:, None]\n",
     "    mask = _STEPS[None, :padded.shape[1]] < lengths[:, None]\n"))}
