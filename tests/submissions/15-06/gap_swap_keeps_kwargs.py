"""Gap-hunting round (issue 39, 2026-12-01): swap_relu calls new_fn with the ReLU node's keyword arguments too (inplace=True of F.relu(x, inplace=True)), so a new_fn without an inplace parameter fails. Breaks: "calling new_fn on the ReLU's input tensor alone (no other arguments)"."""
from course.grading.class_run.submissions import edited

CELLS = {"swap_relu_impl": edited("15-06", "swap_relu_impl", ('            new = gm.graph.call_function(new_fn, args=(inp,))', '            new = gm.graph.call_function(new_fn, args=(inp,), kwargs=dict(node.kwargs))'))}
EXPECT = {"swap_relu": "fail"}
