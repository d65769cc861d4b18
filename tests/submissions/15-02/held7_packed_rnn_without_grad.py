"""Wrong: "output ... equal to the RNN's output for each sequence run alone" and "last ... the top layer's
final hidden state". This version runs the RNN under torch.no_grad(): the values are right, but neither
result carries a gradient back to the RNN's weights or the padded input, so a model trained through it
(the notebook's RowGRU) never updates its RNN."""
from course.grading.class_run.submissions import edited

EXPECT = {"packed_rnn": "fail"}
CELLS = {"packed_rnn_impl": edited(
    "15-02", "packed_rnn_impl",
    ("    out, h = rnn(packed)\n", "    with torch.no_grad():\n        out, h = rnn(packed)\n"))}
