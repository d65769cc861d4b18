"""Known-wrong pad_collate (gap round): assumes each sequence is (L_i, F), so sequences of scalars
(L_i,) raise and (L_i, A, B) lose a dimension ("shape (L_i, *features)")."""
from course.grading.class_run.submissions import edited

CELLS = {"collate_impl": edited("00-03", "collate_impl",
    ("    inputs = seqs[0].new_full((len(seqs), longest, *seqs[0].shape[1:]), padding_value)",
     "    inputs = seqs[0].new_full((len(seqs), longest, seqs[0].shape[1]), padding_value)"))}
EXPECT = {"collate": "fail"}
