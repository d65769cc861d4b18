"""Known-wrong result_dtype (gap round): builds the tiers itself but promotes two dtypes of one tier
with torch.promote_types instead of its own table ("without calling ... torch.promote_types")."""
from course.grading.class_run.submissions import edited

CELLS = {"result_dtype_impl": edited("00-01", "result_dtype_impl",
    ("    def promote_two(x, y):  # step 1: the dtype that holds both\n        if x == y:",
     "    def promote_two(x, y):  # step 1: the dtype that holds both\n        return torch.promote_types(x, y)\n        if x == y:"))}
EXPECT = {"result_dtype": "fail"}
