"""Wrong: "for any `nn.RNN`, `nn.GRU` or `nn.LSTM`": a subclass of `nn.LSTM` is an `nn.LSTM`. This version
recognises an LSTM by its class name, so for a subclass (class MyLSTM(nn.LSTM)) it keeps the (h_n, c_n)
tuple and takes c_n, a whole (layers*D, B, H) tensor, for `last`."""
from course.grading.class_run.submissions import edited

EXPECT = {"packed_rnn": "fail"}
CELLS = {"packed_rnn_impl": edited(
    "15-02", "packed_rnn_impl",
    ("    if isinstance(h, tuple):  # LSTM: (h_n, c_n)\n",
     "    if type(rnn).__name__ == 'LSTM':  # LSTM: (h_n, c_n)\n"))}
