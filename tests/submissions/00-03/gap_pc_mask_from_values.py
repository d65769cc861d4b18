"""Known-wrong pad_collate (gap round): the mask marks the positions whose values differ from
padding_value, so a real element equal to padding_value (a 0 in the data, padded with 0) is masked out
("True exactly at the real (not padded) positions")."""
from course.grading.class_run.submissions import edited

CELLS = {"collate_impl": edited("00-03", "collate_impl",
    ("    mask = torch.arange(longest)[None, :] < lengths[:, None]",
     "    mask = (inputs != padding_value).reshape(len(seqs), longest, -1).any(-1)"))}
EXPECT = {"collate": "fail"}
