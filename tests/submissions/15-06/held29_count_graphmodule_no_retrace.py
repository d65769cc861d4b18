"""Held-out round 29: count_ops does not trace a model that is already an `fx.GraphModule`: it counts the nodes
of the graph the GraphModule holds. The task says "symbolically trace `model` and return a dict mapping each
opcode that occurs in the graph" and "Each call traces `model` as it is at that call". Tracing a GraphModule
runs its generated forward with the default tracer, which goes into `nn.Sequential` containers; a GraphModule
made by a tracer that kept a Sequential as a leaf (`Tracer.is_leaf_module` returning True for it) holds ONE
call_module node for the Sequential, while tracing it gives one per layer inside. Goes wrong on:
gm = fx.GraphModule(m, LeafSeqTracer().trace(m)) with m = a module holding nn.Sequential(Linear, ReLU):
counts 1 call_module, the trace has 2."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "fail", "fold_conv_bn": "pass", "fuse_conv_bn": "pass", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {"count_ops_impl": edited(
    "15-06", "count_ops_impl",
    ("    gm = fx.symbolic_trace(model)\n",
     "    gm = model if isinstance(model, fx.GraphModule) else fx.symbolic_trace(model)\n"))}
