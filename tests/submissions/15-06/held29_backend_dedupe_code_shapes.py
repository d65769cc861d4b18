"""Held-out round 29: the recording backend skips a graph whose generated code AND example-input shapes it has
seen before (a student's "Dynamo called me again for the same graph" filter). Graph-break pieces differ in
code and a shape change gives a dynamic graph with a SymInt input, so those are all recorded; but a
recompilation for a NEW DTYPE gives the same code and the same shapes and is neither printed nor recorded.
The task says "Every graph Dynamo captures (one per graph break piece, and again at each recompilation, for a
new dtype or a new shape) must end up in `graphs`, in order". Goes wrong on: f = torch.compile(lambda t:
torch.cos(t) + 1, backend=backend); f(torch.randn(4)); f(torch.randn(4, dtype=torch.float64)) -> graphs has 1
entry, Dynamo compiled 2."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "pass", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "fail"}
CELLS = {"recording_backend_impl": edited(
    "15-06", "recording_backend_impl",
    ("    graphs = []\n", "    graphs = []\n    seen = set()\n"),
    ("    def backend(gm: fx.GraphModule, example_inputs):\n",
     "    def backend(gm: fx.GraphModule, example_inputs):\n"
     "        key = (gm.code, tuple(tuple(t.shape) if isinstance(t, torch.Tensor) else 'size'\n"
     "                              for t in example_inputs))\n"
     "        if key in seen:\n"
     "            return gm.forward\n"
     "        seen.add(key)\n"))}
