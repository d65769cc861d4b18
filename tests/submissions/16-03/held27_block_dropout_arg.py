"""Known-wrong PreNormBlock (round 27): copying nn.TransformerEncoderLayer's signature, it takes an unused
`dropout=0.0` between dim_feedforward and activation: (d_model, nhead, dim_feedforward, dropout=0.0,
activation="relu", layer_norm_eps=1e-5, batch_first=False). Keyword calls are right; PreNormBlock(8, 2, 16,
"gelu") by position takes "gelu" as the dropout and builds a ReLU block, and PreNormBlock(8, 2, 16, "relu",
0.5) gets eps 1e-5. The text: "PreNormBlock(d_model, nhead, dim_feedforward, activation="relu",
layer_norm_eps=1e-5, batch_first=False)" (goes wrong on activation and layer_norm_eps passed by position)."""
from course.grading.class_run.submissions import edited

CELLS = {"block_impl": edited(
    "16-03", "block_impl",
    ("    def __init__(self, d_model, nhead, dim_feedforward, activation=\"relu\", layer_norm_eps=1e-5,\n"
     "                 batch_first=False):",
     "    def __init__(self, d_model, nhead, dim_feedforward, dropout=0.0, activation=\"relu\", layer_norm_eps=1e-5,\n"
     "                 batch_first=False):"))}
EXPECT = {"block": "fail"}
