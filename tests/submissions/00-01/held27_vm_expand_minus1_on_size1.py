"""Round 27: view_meta's expand tests "is this a size-1 dimension?" before "is the wanted size -1?", so a -1
on a size-1 dimension becomes the size -1 (stride 0) instead of keeping the size 1. Breaks "`sizes` may hold
`-1` for 'keep this size'" and "The result must equal what PyTorch's own operation gives": wrong for
expand((-1, 3)) of a (1, 1) header (PyTorch: (1, 3))."""
from course.grading.class_run.submissions import edited

EXPECT = {"view_meta": "fail"}
CELLS = {"view_meta_impl": edited("00-01", "view_meta_impl", (
    '''            if want == -1 or want == have:
                new_shape.append(have)
                new_stride.append(st)
            elif have == 1:
                new_shape.append(want)
                new_stride.append(0)''',
    '''            if have == 1 and want != 1:
                new_shape.append(want)
                new_stride.append(0)
            elif want == -1 or want == have:
                new_shape.append(have)
                new_stride.append(st)'''))}
