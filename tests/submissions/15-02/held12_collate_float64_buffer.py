"""Pads into a float64 buffer and casts back to the sequences' dtype: int64 values above 2**53 are
rounded and complex values lose their imaginary part ("any dtype; the padded tensor keeps that dtype")."""
from course.grading.class_run.submissions import edited

EXPECT = {"collate": "fail"}
CELLS = {"collate_impl": edited("15-02", "collate_impl", (
    "    padded = pad_sequence(seqs, batch_first=True, padding_value=0)\n",
    '''    buf = torch.zeros((len(seqs), int(lengths.max())) + tuple(seqs[0].shape[1:]), dtype=torch.float64,
                      device=seqs[0].device)
    for i, s in enumerate(seqs):
        buf[i, :s.shape[0]] = s.to(torch.float64)
    padded = buf.to(seqs[0].dtype)
'''))}
