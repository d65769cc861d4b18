"""Wrong: "`last`: shape `(B, D*H)`" for any batch, B = 1 included. This version squeezes dimension 0 of
the concatenated final state (meaning to drop a layer dimension it does not have): a batch of one sequence
gives `last` of shape (D*H,) instead of (1, D*H)."""
from course.grading.class_run.submissions import edited

EXPECT = {"packed_rnn": "fail"}
CELLS = {"packed_rnn_impl": edited(
    "15-02", "packed_rnn_impl",
    ("    last = torch.cat([h[-d + k] for k in range(d)], dim=-1)\n",
     "    last = torch.cat([h[-d + k] for k in range(d)], dim=-1).squeeze(0)\n"))}
