"""Round 27: view_meta's expand broadcasts every dimension of size at most 1 (`have <= 1`), so a size-0
dimension "expands" to 5 with stride 0. PyTorch raises RuntimeError ("The expanded size of the tensor (5)
must match the existing size (0) at non-singleton dimension"). Breaks "Raise `RuntimeError` where PyTorch's
... `expand` does: ... an `expand` that changes a size other than 1": wrong for expand((5,)) of a (0,) header."""
from course.grading.class_run.submissions import edited

EXPECT = {"view_meta": "fail"}
CELLS = {"view_meta_impl": edited("00-01", "view_meta_impl", (
    '''            elif have == 1:
                new_shape.append(want)''',
    '''            elif have <= 1:
                new_shape.append(want)'''))}
