"""Known-wrong PreNormBlock (round 27): norm1 and norm2 are ONE nn.LayerNorm registered under both names
(a module shared by two parents in the same block). The state dict still lists norm1.* and norm2.*, so
load_state_dict works, but both names load into the same weight and bias (the last one wins, norm2's), so the
attention input is normalised with norm2's affine parameters; with PyTorch's default LayerNorm initialisation
(ones and zeros in both) nothing differs. The text: the block "has the sub-modules and state dict keys of
nn.TransformerEncoderLayer" and "equals nn.TransformerEncoderLayer(..., dropout=0.0, norm_first=True) loaded
with the same state dict"; "Gradients reach every parameter" (goes wrong on a state dict whose norm1 and norm2
differ)."""
from course.grading.class_run.submissions import edited

CELLS = {"block_impl": edited(
    "16-03", "block_impl",
    ("        self.norm1 = nn.LayerNorm(d_model, eps=layer_norm_eps)\n"
     "        self.norm2 = nn.LayerNorm(d_model, eps=layer_norm_eps)",
     "        self.norm1 = self.norm2 = nn.LayerNorm(d_model, eps=layer_norm_eps)"))}
EXPECT = {"block": "fail"}
