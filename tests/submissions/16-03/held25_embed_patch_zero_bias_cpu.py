"""Known-wrong patch_embed (round 25): with bias=None it adds a zero bias made with `torch.zeros(e)`,
which is on the CPU whatever the inputs' device. On the CPU the values and gradients are right; on a GPU
(images and weight on cuda, bias=None) the addition of a CPU tensor of shape (E,) to a cuda tensor raises.
The notebook says it "Runs on CPU or GPU" and patch_embed's bias is "(E,) or None" (goes wrong on
images and weight on a GPU with bias=None)."""
from course.grading.class_run.submissions import edited

CELLS = {"embed_impl": edited(
    "16-03", "embed_impl",
    ("    return out + bias if bias is not None else out",
     "    if bias is None:\n        bias = torch.zeros(e, dtype=out.dtype)\n    return out + bias"))}
EXPECT = {"embed": "fail"}
