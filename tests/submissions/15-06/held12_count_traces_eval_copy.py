"""Held-out round 12 (issue 39): count_ops traces an eval-mode copy of the model ("as for inference")
instead of the model as given. A forward that branches on self.training records other nodes in training
mode than in eval mode, so a training-mode model is miscounted. Breaks: "symbolically trace `model` and
return a dict mapping each opcode that occurs in the graph ... to the number of nodes" (the graph of
`model`, in the mode it is in)."""
from course.grading.class_run.submissions import edited

CELLS = {"count_ops_impl": edited("15-06", "count_ops_impl",
                                  ("gm = fx.symbolic_trace(model)",
                                   "gm = fx.symbolic_trace(copy.deepcopy(model).eval())  # count the inference graph"))}
EXPECT = {"count_ops": "fail"}
