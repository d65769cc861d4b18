"""result_dtype from torch.result_type inside a branch of torch.ops.higher_order.cond (the HOP called directly, a
tensor predicate): the probe's TorchFunctionMode is shown `cond` only and the branch runs inside its handling."""
CELLS = {"result_dtype_impl": '''def result_dtype(a, b):
    """The dtype of a + b, from the category and tier rules."""
    box = []
    def _branch(z):
        box.append(torch.result_type(a, b))
        return z.clone()
    torch.ops.higher_order.cond(torch.tensor(True), _branch, _branch, (torch.zeros(1),))
    return box[0]
'''}
EXPECT = {"result_dtype": "fail"}
