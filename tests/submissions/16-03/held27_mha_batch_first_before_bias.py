"""Known-wrong MultiHeadAttention (round 27): its parameters are (embed_dim, num_heads, batch_first=False,
bias=True), batch_first before bias. Keyword calls are right; MultiHeadAttention(8, 2, False) (no biases,
by the task's order) builds a layer with biases in the sequence-first layout, whose state dict has keys that
nn.MultiheadAttention(8, 2, bias=False) does not, and MultiHeadAttention(8, 2, True, True) is fine only by
luck. The text fixes the order: "MultiHeadAttention(embed_dim, num_heads, bias=True, batch_first=False)"
(goes wrong on bias passed by position)."""
from course.grading.class_run.submissions import edited

CELLS = {"mha_impl": edited(
    "16-03", "mha_impl",
    ("def __init__(self, embed_dim, num_heads, bias=True, batch_first=False):",
     "def __init__(self, embed_dim, num_heads, batch_first=False, bias=True):"))}
EXPECT = {"mha": "fail"}
