"""Wrong: "each sequence a tensor of shape (L_i, *) (any trailing shape, any dtype; the padded tensor
keeps that dtype)". This collate pads in float32 and casts back to the sequences' dtype: the dtype is
right, but int64 token ids above 2**24 (and float64 values) come back rounded to float32."""
from course.grading.class_run.submissions import edited

EXPECT = {"collate": "fail"}
CELLS = {"collate_impl": edited(
    "15-02", "collate_impl",
    ("    padded = pad_sequence(seqs, batch_first=True, padding_value=0)\n",
     "    padded = pad_sequence([s.float() for s in seqs], batch_first=True, padding_value=0).to(seqs[0].dtype)\n"))}
