# pipeline_grads returns the stage's gradients "for convenience" instead of None.
from course.grading.class_run.submissions import edited

EXPECT = {"pipeline": "fail"}
CELLS = {"pipeline_impl": edited("16-04", "pipeline_impl", (
    "            dist.send(h.grad, 0)\n",
    "            dist.send(h.grad, 0)\n"
    "    return [p.grad for p in stage.parameters()]\n"))}
