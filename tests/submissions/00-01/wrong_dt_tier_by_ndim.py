"""result_dtype: two dimensioned tensors are ranked by their number of dimensions, as if each extra dimension were
a tier of its own, so a (2, 2) int8 tensor with a (2,) int64 tensor gives int8 instead of int64. Breaks 'tensors
with at least one dimension' being one tier (rule 1 promotes within it). Caught by the dimensioned table, which
pairs a 2-d tensor with a 1-d one as well as two 1-d ones."""
from course.grading.class_run.submissions import edited

EXPECT = {'view_meta': 'pass', 'windows': 'pass', 'reshape_view': 'pass', 'result_dtype': 'fail',
          'stale_nodes': 'pass', 'op_logger': 'pass'}
CELLS = {"result_dtype_impl": edited(
    "00-01", "result_dtype_impl",
    ("    tiers = {2: [], 1: [], 0: []}\n",
     "    if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor) and min(a.dim(), b.dim()) > 0 \\\n"
     "            and a.dim() != b.dim():\n"
     "        hi, lo = (a.dtype, b.dtype) if a.dim() > b.dim() else (b.dtype, a.dtype)\n"
     "        return lo if category(lo) > category(hi) else hi\n"
     "    tiers = {2: [], 1: [], 0: []}\n"))}
