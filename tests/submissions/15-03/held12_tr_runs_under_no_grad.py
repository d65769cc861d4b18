"""Held-out round 12 (issue 39): trace_activations runs model(x) under torch.no_grad() "to save memory
while logging". The values of the output are right, but the returned output has no autograd graph: a
caller cannot backpropagate through it. Breaks: "runs model(x) once ... `output` is what model(x)
returned" (model(x) in the caller's grad mode records a graph)."""
from course.grading.class_run.submissions import edited

CELLS = {"trace_impl": edited("15-03", "trace_impl",
                              ("        output = model(x)\n",
                               "        with torch.no_grad():\n            output = model(x)\n"))}
EXPECT = {"trace": "fail"}
