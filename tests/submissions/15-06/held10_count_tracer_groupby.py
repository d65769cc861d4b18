"""Held-out round 10, a correct answer written an unusual way: count_ops builds the graph with a plain
fx.Tracer (no GraphModule), sorts the opcodes and counts each run with itertools.groupby; opcodes that do not
occur are left out, which the text allows."""

EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "pass", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {"count_ops_impl": '''def count_ops(model: nn.Module) -> dict:
    import itertools
    graph = fx.Tracer().trace(model)
    ops = sorted(node.op for node in graph.nodes)
    return {op: len(list(run)) for op, run in itertools.groupby(ops)}
'''}
