"""Round 12 (held out): the batch starts as zeros and is filled with padding_value only "if padding_value:",
so padding_value = -0.0 leaves +0.0 at the padded positions (and the sequences' dtype is kept). The text:
padding_value everywhere else; pad_sequence(..., padding_value=-0.0) writes -0.0."""
from course.grading.class_run.submissions import edited

EXPECT = {"collate": "fail"}
CELLS = {"collate_impl": edited("00-03", "collate_impl", (
    "    inputs = seqs[0].new_full((len(seqs), longest, *seqs[0].shape[1:]), padding_value)\n",
    "    inputs = seqs[0].new_zeros((len(seqs), longest, *seqs[0].shape[1:]))\n"
    "    if padding_value:\n"
    "        inputs.fill_(padding_value)\n"))}
