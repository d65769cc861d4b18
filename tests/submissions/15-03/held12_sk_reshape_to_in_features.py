"""Held-out round 12 (issue 39), written as a wrong answer and found not wrong by the text: SkipMLP.forward
always reshapes its input to (-1, in_features), the MNIST-tutorial idiom, instead of flattening only inputs
with more than 2 dimensions. Images, (N, L, F), empty and non-contiguous batches come out right; only an
unbatched x of shape (in_features,) differs ((1, num_classes) instead of (num_classes,)). The text never
asked for an unbatched x (three existing correct examples reject one), so round 12 made it say so ("`x` is
always a batch: a single example comes as (1, in_features)") and keeps this answer as one that must pass."""
from course.grading.class_run.submissions import edited

CELLS = {"skipmlp_impl": edited("15-03", "skipmlp_impl",
                                ("        self.blocks = nn.ModuleList()\n",
                                 "        self.in_features = in_features\n        self.blocks = nn.ModuleList()\n"),
                                ("        if x.dim() > 2:\n            x = x.flatten(1)\n",
                                 "        x = x.reshape(-1, self.in_features)\n"))}
EXPECT = {"skipmlp": "pass"}
