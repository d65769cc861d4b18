"""Wrong (blind batch, issue #19, third round for 00-01, closed after it): takes 'one element' for 'zero dimensions': a tensor of shape (1,) or (1, 1) is put in the 0-dim tier, so a (1,)-shaped float32 tensor with a 0-dim float64 gives float64 instead of float32 (tiers are 'tensors with at least one dimension, 0-dim tensors').

Caught by test_dim_with_zero_dim, which also pairs (1,)-shaped tensors of every dtype with 0-dim ones.
"""
EXPECT = {'view_meta': 'pass', 'windows': 'pass', 'reshape_view': 'pass', 'result_dtype': 'fail', 'stale_nodes': 'pass', 'op_logger': 'pass'}

CELLS = {
    'result_dtype_impl': '''
_BOOL = torch.bool
_INTS = [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64]
_FLOATS = [torch.float16, torch.bfloat16, torch.float32, torch.float64]
_CPLX = [torch.complex64, torch.complex128]


def _cat(d):
    if d == _BOOL:
        return 0
    if d in _INTS:
        return 1
    if d in _FLOATS:
        return 2
    return 3


def _default_complex():
    return torch.complex128 if torch.get_default_dtype() == torch.float64 else torch.complex64


def _operand(v):
    if isinstance(v, torch.Tensor):
        return (1 if v.numel() == 1 else 2), v.dtype
    if isinstance(v, bool):
        return 0, torch.bool
    if isinstance(v, int):
        return 0, torch.int64
    if isinstance(v, float):
        return 0, torch.get_default_dtype()
    return 0, _default_complex()


def _same_tier(x, y):
    if x == y:
        return x
    cx, cy = _cat(x), _cat(y)
    if cx < cy:
        x, y, cx, cy = y, x, cy, cx
    if cx != cy:
        if cx == 3 and cy == 2:
            return torch.complex128 if torch.float64 in (x, y) or torch.complex128 in (x, y) else torch.complex64
        return x
    if cx == 1:
        if torch.uint8 in (x, y):
            other = y if x == torch.uint8 else x
            return torch.int16 if other == torch.int8 else other
        return max(x, y, key=_INTS.index)
    if cx == 2:
        if {x, y} == {torch.float16, torch.bfloat16}:
            return torch.float32
        return max(x, y, key=_FLOATS.index)
    return max(x, y, key=_CPLX.index)


def result_dtype(a, b):
    """The dtype of a + b, from the category and tier rules."""
    (ta, da), (tb, db) = _operand(a), _operand(b)
    if ta == tb:
        return _same_tier(da, db)
    high, low = (da, db) if ta > tb else (db, da)
    if _cat(low) <= _cat(high):
        return high
    if _cat(high) == 2 and _cat(low) == 3:
        return torch.complex128 if high == torch.float64 else torch.complex64
    return low
''',
}
