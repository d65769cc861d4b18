"""Round 27: view_meta counts elements with functools.reduce(operator.mul, shape) without a start value, so
a `view` of a 0-dim header (shape ()) raises TypeError ("reduce() of empty iterable") instead of giving the
view. Breaks "`shape` and `stride` are tuples of ints of equal length (possibly empty)": wrong for
view_meta((), (), 3, "view", ((1, 1),)) (PyTorch: shape (1, 1), offset 3)."""
from course.grading.class_run.submissions import edited

EXPECT = {"view_meta": "fail"}
CELLS = {"view_meta_impl": edited("00-01", "view_meta_impl", (
    '''        numel = math.prod(shape)''',
    '''        import functools
        import operator
        numel = functools.reduce(operator.mul, shape)'''))}
