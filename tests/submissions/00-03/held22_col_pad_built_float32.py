"""Held-out round 22: the padded tensor is built with torch.full(..., float(padding_value)) in the default dtype
(float32) on the right device and then moved with .to(sequence) to the sequences' dtype. For float64 sequences a
padding_value such as 0.1 is first rounded to float32, so the padded positions hold 0.10000000149..., not 0.1 as
pad_sequence gives (-1, 0, -0.0 and inf survive the detour). Breaks "padding_value everywhere else"."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "pass", "schedule": "pass", "collate": "fail"}
CELLS = {"collate_impl": edited(
    "00-03", "collate_impl",
    ("    inputs = seqs[0].new_full((len(seqs), longest, *seqs[0].shape[1:]), padding_value)\n",
     "    inputs = torch.full((len(seqs), longest, *seqs[0].shape[1:]), float(padding_value),\n"
     "                        device=seqs[0].device).to(seqs[0])\n"))}
