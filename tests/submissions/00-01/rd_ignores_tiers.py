"""result_dtype: promotes the two dtypes as if both were dimensioned tensors (a Python float counts as the default dtype, a 0-dim int64 as int64), so int8 tensor + 1000 gives int64 instead of int8."""
EXPECT = {'view_meta': 'pass', 'windows': 'pass', 'reshape_view': 'pass', 'result_dtype': 'fail', 'stale_nodes': 'pass'}
CELLS = {
    'result_dtype_impl': '''
def result_dtype(a, b):
    """The dtype of a + b, from the category and tier rules."""
    ints = (torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64)
    floats = (torch.float16, torch.bfloat16, torch.float32, torch.float64)
    complex_of = {torch.float32: torch.complex64, torch.float64: torch.complex128}

    def category(dt):
        if dt == torch.bool:
            return 0
        if dt in ints:
            return 1
        if dt in floats:
            return 2
        return 3

    def promote_two(x, y):  # step 1: the dtype that holds both
        if x == y:
            return x
        cx, cy = category(x), category(y)
        if cx != cy:
            hi, lo = (x, y) if cx > cy else (y, x)
            if category(hi) == 3 and lo == torch.float64:
                return torch.complex128
            return hi
        if cx == 1 and torch.uint8 in (x, y):
            other = y if x == torch.uint8 else x
            return torch.int16 if other == torch.int8 else other
        if {x, y} == {torch.float16, torch.bfloat16}:
            return torch.float32
        return x if x.itemsize > y.itemsize else y

    tiers = {2: [], 1: [], 0: []}
    for v in (a, b):
        if isinstance(v, torch.Tensor):
            tiers[2].append(v.dtype)
        elif isinstance(v, bool):
            tiers[2].append(torch.bool)
        elif isinstance(v, int):
            tiers[2].append(torch.int64)
        elif isinstance(v, float):
            tiers[2].append(torch.get_default_dtype())
        elif isinstance(v, complex):
            tiers[2].append(complex_of[torch.get_default_dtype()])
        else:
            raise TypeError(f"not a tensor or a Python number: {type(v).__name__}")
    result = None
    for tier in (2, 1, 0):
        if not tiers[tier]:
            continue
        here = tiers[tier][0] if len(tiers[tier]) == 1 else promote_two(*tiers[tier])
        if result is None:
            result = here
        elif category(here) > category(result):
            result = complex_of[result] if category(result) == 2 and category(here) == 3 else here
    return result
''',
}
