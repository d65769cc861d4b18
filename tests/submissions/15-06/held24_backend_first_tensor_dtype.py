"""Held-out round 24: the recording backend prints a header with the dtype of the graph's first tensor input, found
with next(t for t in example_inputs if isinstance(t, torch.Tensor)); it skips the SymInt sizes the text warns about,
but a graph with no tensor input at all (a graph-break piece that only builds new tensors, e.g. `return
torch.ones(3) * 2` after a print, or a compiled function without arguments) raises StopIteration inside the
backend, so that graph is never recorded and the compiled call fails. It breaks "Every graph Dynamo captures (one
per graph break piece, ...) must end up in `graphs`, in order"."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "pass", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "fail"}
CELLS = {"recording_backend_impl": edited(
    "15-06", "recording_backend_impl",
    ('        print(f"--- graph {len(graphs)} captured by Dynamo ({len(example_inputs)} inputs) ---")\n',
     '        first = next(t for t in example_inputs if isinstance(t, torch.Tensor))  # skip SymInt sizes\n'
     '        print(f"--- graph {len(graphs)} captured by Dynamo ({len(example_inputs)} inputs, {first.dtype}) ---")\n'))}
