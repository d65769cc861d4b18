"""ZeRO-3 that all-gathers every layer's parameters at the start of the step and keeps them for the forward
and the backward (one gather per layer, all of the model whole at once)."""
from course.grading.class_run.submissions import edited

EXPECT = {"zero3": "fail"}
CELLS = {"zero3_impl": edited("16-04", "zero3_impl",
                              ("    inputs, h = [], x\n",
                               "    whole = [gather(i) for i in range(len(layers))]\n    inputs, h = [], x\n"),
                              ("            h = layer(gather(i), h)\n", "            h = layer(whole[i], h)\n"),
                              ("        params = [p.requires_grad_() for p in gather(i)]\n",
                               "        params = [p.detach().requires_grad_() for p in whole[i]]\n"))}
