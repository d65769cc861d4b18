"""Held-out round 15: the recording backend skips a graph whose code it has already recorded ("no duplicates in
graphs"). A recompilation (the same compiled function called with float64 after float32, or two compiled functions
with the same body) hands the backend a second GraphModule with identical code; it is neither printed nor recorded.
Breaks: "Every graph Dynamo captures ... must end up in graphs, in order" and "backend(gm, example_inputs) prints the
graph it received ... appends gm to graphs"."""
from course.grading.class_run.submissions import edited

EXPECT = {"recording_backend": "fail"}
CELLS = {"recording_backend_impl": edited(
    "15-06", "recording_backend_impl",
    ("    def backend(gm: fx.GraphModule, example_inputs):\n",
     "    def backend(gm: fx.GraphModule, example_inputs):\n"
     "        if any(g.code == gm.code for g in graphs):\n"
     "            return gm.forward  # already recorded\n"))}
