"""Held-out round 28 (15-03 skipmlp): normalises with F.layer_norm and ignores the LayerNorm's own parameters.

The text: each block owns `norm = nn.LayerNorm(d_in)` and its output is `shortcut(x) + relu(fc(norm(x)))`.
This block keeps the LayerNorm (so the state_dict keys are right) but computes `F.layer_norm(x, x.shape[-1:])`
with no weight and no bias. A freshly built LayerNorm has weight 1 and bias 0, so fresh models agree; any
model whose norm weight/bias are not 1/0 (trained, or set by hand, e.g. blocks[0].norm.weight filled with 2)
gives a different output, and the norm parameters never receive gradients.
"""
from course.grading.class_run.submissions import edited

EXPECT = {"skipmlp": "fail"}

CELLS = {
    "skipmlp_impl": edited("15-03", "skipmlp_impl",
                           ("        return shortcut + torch.relu(self.fc(self.norm(x)))\n",
                            "        h = F.layer_norm(x, x.shape[-1:]) if isinstance(self.norm, nn.LayerNorm) else x\n"
                            "        return shortcut + torch.relu(self.fc(h))\n")),
}
