"""Round 25: OpLogger picks the matrix products by their name's ending ("mm") and takes the last two tensor
arguments as the factors: right for mm, addmm, bmm and baddbmm (in-place addmm_ ends in "_"), but
torch.addbmm(c, b1, b2) inside the block gets an "aten.addbmm" entry that FlopCounterMode does not have. Breaks
"for aten.mm, aten.addmm, aten.bmm, aten.baddbmm, aten.convolution and aten.convolution_backward ... other
operators ... have no entry"."""
from course.grading.class_run.submissions import edited

EXPECT = {"op_logger": "fail"}
CELLS = {"op_logger_impl": edited("00-01", "op_logger_impl", (
    '''        if name in ("aten.mm", "aten.addmm"):
            a, b = args[-2], args[-1]
            count = 2 * a.shape[0] * a.shape[1] * b.shape[1]
        elif name in ("aten.bmm", "aten.baddbmm"):
            a, b = (args[0], args[1]) if name == "aten.bmm" else (args[1], args[2])
            count = 2 * a.shape[0] * a.shape[1] * a.shape[2] * b.shape[2]''',
    '''        if name.endswith("mm"):  # mm, addmm, bmm, baddbmm: the last two tensors are the factors
            a, b = [v for v in args if isinstance(v, torch.Tensor)][-2:]
            count = 2 * math.prod(a.shape) * b.shape[-1]'''))}
