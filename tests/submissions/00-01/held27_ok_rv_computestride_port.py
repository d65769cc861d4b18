"""Round 27, correct: reshape_is_view as a line-by-line port of ATen's computeStride (the function reshape
itself asks), without view_meta: walk the old dimensions from the last, close a chunk where the next one out
does not continue it evenly (size-1 dimensions never close one), and give the chunk the new dimensions whose
product matches it (trailing size-1 new dimensions included). 0-dim and zero-element tensors always view;
a -1 is inferred first. Correct for every shape, stride and new_shape the text allows; EXPECT all pass."""
EXPECT = {"view_meta": "pass", "windows": "pass", "reshape_view": "pass", "result_dtype": "pass",
          "stale_nodes": "pass", "op_logger": "pass"}
CELLS = {"reshape_view_impl": '''def reshape_is_view(shape, stride, new_shape):
    """Whether reshape to new_shape can return a view of a tensor with this shape and stride."""
    old_shape, old_stride, new = list(shape), list(stride), list(new_shape)
    numel = 1
    for s in old_shape:
        numel *= s
    if -1 in new:
        known = 1
        for s in new:
            if s != -1:
                known *= s
        new[new.index(-1)] = numel // known
    if not old_shape or numel == 0:
        return True
    view_d = len(new) - 1
    chunk_base_stride = old_stride[-1]
    tensor_numel = view_numel = 1
    for tensor_d in range(len(old_shape) - 1, -1, -1):
        tensor_numel *= old_shape[tensor_d]
        if tensor_d == 0 or (old_shape[tensor_d - 1] != 1
                             and old_stride[tensor_d - 1] != tensor_numel * chunk_base_stride):
            while view_d >= 0 and (view_numel < tensor_numel or new[view_d] == 1):
                view_numel *= new[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return False
            if tensor_d > 0:
                chunk_base_stride = old_stride[tensor_d - 1]
                tensor_numel = view_numel = 1
    return view_d == -1
'''}
