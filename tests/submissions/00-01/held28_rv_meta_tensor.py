"""Round 28: reshape_is_view asks PyTorch: it makes a meta tensor with the layout (torch.empty_strided on
device "meta", no memory) and checks whether its reshape is a view. Breaks "Decide from the integers alone":
wrong on every input, e.g. reshape_is_view((2, 3), (3, 1), (3, 2)) (the value is right, the method is
forbidden)."""
from course.grading.class_run.submissions import edited

EXPECT = {"reshape_view": "fail"}
CELLS = {"reshape_view_impl": edited("00-01", "reshape_view_impl", (
    '''    try:
        view_meta(shape, stride, 0, "view", (new_shape,))
    except RuntimeError:
        return False
    return True''',
    '''    t = torch.empty_strided(tuple(shape), tuple(stride), device="meta")
    r = t.reshape(tuple(new_shape))
    return bool(r._is_view() and r._base is t)'''))}
