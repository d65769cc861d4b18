"""Round 14s: a correct view_meta that never compares a dimension or an index with a bound: it indexes
range(n)[d] and range(size)[i], which raise IndexError past either end (and on a 0-dim header, where range(0)
has nothing to index), and wraps negative ones as a side effect."""
from course.grading.class_run.submissions import edited

EXPECT = {"view_meta": "pass"}
CELLS = {"view_meta_impl": edited("00-01", "view_meta_impl", (
    '''        if not -n <= d < n:
            raise IndexError(f"dimension {d} is out of range for a {n}-dim tensor")
        return d % n''', '''        return range(n)[d]  # IndexError past either end and for any dimension of a 0-dim header'''), (
    '''        if not -shape[d] <= i < shape[d]:
            raise IndexError(f"index {i} is out of range for a dimension of size {shape[d]}")
        offset += (i % shape[d]) * stride[d]''', '''        offset += range(shape[d])[i] * stride[d]'''))}
