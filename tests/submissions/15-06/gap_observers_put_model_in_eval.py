"""Gap-hunting round (issue 39, 2026-12-01): insert_observers calls model.eval() first (as calibration for post-training quantisation usually is), which changes the caller's model. Breaks: "and not change model"."""
from course.grading.class_run.submissions import edited

CELLS = {"insert_observers_impl": edited("15-06", "insert_observers_impl", ('    gm = fx.symbolic_trace(model)\n    for node in list(gm.graph.nodes):\n        if node.op != "call_module" or not isinstance(gm.get_submodule(node.target), op_types):', '    gm = fx.symbolic_trace(model.eval())\n    for node in list(gm.graph.nodes):\n        if node.op != "call_module" or not isinstance(gm.get_submodule(node.target), op_types):'))}
EXPECT = {"insert_observers": "fail"}
