"""Round 19: expand copies a new leading size as it is, -1 included, so expand((-1, 3, 4)) of a (3, 1) header
returns a shape holding -1 where PyTorch raises (-1 keeps a size, and a new leading dimension has none to keep)."""
from course.grading.class_run.submissions import edited

EXPECT = {"view_meta": "fail"}
CELLS = {"view_meta_impl": edited("00-01", "view_meta_impl", (
    '''                if want < 0:
                    raise RuntimeError("expand: -1 is not allowed in a new leading dimension")
''', ''))}
