"""Round 19: view returns early when the tensor has no elements ("any strides will do"), before -1 is
inferred: the -1 becomes 0, so view(0, -1) of an empty tensor gives (0, 0) where PyTorch raises (the text: raise
RuntimeError for a view that cannot infer its -1)."""
from course.grading.class_run.submissions import edited

EXPECT = {"view_meta": "fail"}
CELLS = {"view_meta_impl": edited("00-01", "view_meta_impl", (
    '''        if new.count(-1) > 1:
            raise RuntimeError("view: only one dimension can be -1")''',
    '''        if numel == 0 and new.count(-1) <= 1:  # nothing to reach: any header will do
            new = [0 if s == -1 else s for s in new]
            if math.prod(new) == 0:
                return tuple(new), tuple([1] * len(new)), offset
        if new.count(-1) > 1:
            raise RuntimeError("view: only one dimension can be -1")'''))}
