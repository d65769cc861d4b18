"""Known-wrong result_dtype (gap round): asks PyTorch for the answer ("without calling
torch.result_type, torch.promote_types or doing arithmetic on a and b")."""
CELLS = {"result_dtype_impl": '''def result_dtype(a, b):
    """The dtype of a + b, from the category and tier rules."""
    return torch.result_type(a, b)
'''}
EXPECT = {"result_dtype": "fail"}
