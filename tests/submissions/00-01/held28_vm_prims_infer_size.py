"""Round 28: view_meta infers the `-1` of a view with PyTorch's own helper `torch._prims_common.infer_size`
(pure Python, no tensor made, same errors). Breaks "using integer arithmetic only: no tensors, no
`as_strided`, no calls into PyTorch": wrong on every view with a -1, e.g. view_meta((2, 3, 4), (12, 4, 1),
5, "view", ((6, -1),)) (the value is right, the method is forbidden)."""
from course.grading.class_run.submissions import edited

EXPECT = {"view_meta": "fail"}
CELLS = {"view_meta_impl": edited("00-01", "view_meta_impl", (
    '''        if -1 in new:
            known''',
    '''        if -1 in new:
            import torch._prims_common as _pc
            new = list(_pc.infer_size(tuple(new), numel))
        if -1 in new:
            known'''))}
