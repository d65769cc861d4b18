"""Known-wrong result_dtype (red team 20): PyTorch's own promotion table from its Python references,
`torch._prims_common.elementwise_dtypes`, which makes no tensor and calls no torch function ("building the
table yourself")."""
CELLS = {"result_dtype_impl": '''def result_dtype(a, b):
    """The dtype of a + b, from PyTorch's reference implementation of promotion."""
    import torch._prims_common as pc
    return pc.elementwise_dtypes(a, b, type_promotion_kind=pc.ELEMENTWISE_TYPE_PROMOTION_KIND.DEFAULT)[1]
'''}
EXPECT = {"result_dtype": "fail"}
