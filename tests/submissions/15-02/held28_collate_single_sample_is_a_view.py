"""Wrong: "Each call's tensors are its own: collating the next batch must leave a batch returned earlier as it was"
(since this round the text says "new tensors that share memory neither with the samples passed in (a batch of one
included) nor with another call's"). This version takes a shortcut for a batch of one sequence: nothing needs
padding, so it returns `seqs[0].unsqueeze(0)`, a view of the caller's (the data set's) tensor. The batch is not
the call's own: an in-place step on the batch (`padded.sub_(mean)`, `padded.clamp_(...)`) rewrites the data set,
and a data set that refills one buffer per item changes the batch returned earlier. Goes wrong on
`pad_collate([(s, 0)])`: `padded[0]` shares `s`'s storage (writing into it changes `s`)."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "pass", "balanced": "pass", "collate": "fail", "packed_rnn": "pass", "stream": "pass"}
CELLS = {"collate_impl": edited(
    "15-02", "collate_impl",
    ("    padded = pad_sequence(seqs, batch_first=True, padding_value=0)\n",
     "    if len(seqs) == 1:\n"
     "        padded = seqs[0].unsqueeze(0)\n"
     "    else:\n"
     "        padded = pad_sequence(seqs, batch_first=True, padding_value=0)\n"))}
