"""view_meta: allows a view only when the input is contiguous, a plausible weaker rule. A (4, 3) tensor with strides (6, 2) (every other column of a wider one) can still be viewed as (2, 2, 3); PyTorch allows it, this answer raises. Breaks 'the result must equal what PyTorch's own operation gives'."""
from course.grading.class_run.submissions import edited

EXPECT = {'view_meta': 'fail', 'windows': 'pass', 'reshape_view': 'fail', 'result_dtype': 'pass', 'stale_nodes': 'pass'}
CELLS = {"view_meta_impl": edited("00-01", "view_meta_impl",
    ('            raise RuntimeError(f"view: shape {tuple(args[0])} is invalid for {numel} elements")\n        out = [1] * len(new)',
     '            raise RuntimeError(f"view: shape {tuple(args[0])} is invalid for {numel} elements")\n        want, ok = 1, True\n        for size, st in reversed(list(zip(shape, stride))):\n            ok = ok and (size == 1 or st == want)\n            want *= size\n        if numel and not ok:\n            raise RuntimeError("view needs a contiguous tensor")\n        out = [1] * len(new)'))}
