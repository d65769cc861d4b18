"""Round 19: a slice keeps math.ceil((stop - start) / step) elements, the formula of the text typed as written:
a float division, exact for small sizes and off by one once stop - start passes 2**53 (the text asks for integer
arithmetic only, and huge sizes must cost nothing and still be right)."""
from course.grading.class_run.submissions import edited

EXPECT = {"view_meta": "fail"}
CELLS = {"view_meta_impl": edited("00-01", "view_meta_impl", (
    '''        shape[d] = (stop - start + step - 1) // step''',
    '''        shape[d] = math.ceil((stop - start) / step)'''))}
