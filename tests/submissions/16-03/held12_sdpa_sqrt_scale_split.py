"""Known-wrong scaled_dot_product_attention (round 12): splits the scale between q and k as sqrt(scale) each
(a trick for smaller intermediate values), which raises for a negative scale; "the scores are
q @ k.transpose(-2, -1) times scale" holds for any scale, as in PyTorch."""
from course.grading.class_run.submissions import edited

CELLS = {"sdpa_impl": edited(
    "16-03", "sdpa_impl",
    ("scores = (q @ k.transpose(-2, -1)) * scale",
     "root = math.sqrt(scale)  # half of the scale on each side keeps q @ k^T small\n"
     "    scores = (q * root) @ (k * root).transpose(-2, -1)"))}
EXPECT = {"sdpa": "fail"}
