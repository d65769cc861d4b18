"""Known-wrong reshape_is_view (gap round): makes a real tensor with that shape and stride and asks
PyTorch's reshape ("Decide from the integers alone")."""
CELLS = {"reshape_view_impl": '''def reshape_is_view(shape, stride, new_shape):
    """Whether reshape to new_shape can return a view of a tensor with this shape and stride."""
    t = torch.empty_strided(tuple(shape), tuple(stride))
    return t.reshape(tuple(new_shape))._is_view()
'''}
EXPECT = {"reshape_view": "fail"}
