"""Correct, written differently: reshape_is_view on its own (merge runs of evenly spaced dimensions, then check that
every run's element count is a product of consecutive new sizes), windows through Tensor.as_strided with sizes built
by tuple arithmetic, and result_dtype computing a promotion by bit widths."""
EXPECT = {"view_meta": "pass", "windows": "pass", "reshape_view": "pass", "result_dtype": "pass", "stale_nodes": "pass"}
CELLS = {
    "reshape_view_impl": '''
def reshape_is_view(shape, stride, new_shape):
    total = math.prod(shape)
    if total == 0:
        return True
    new = [s for s in new_shape if s != 1]
    if -1 in new:
        k = new.index(-1)
        new[k] = total // math.prod(s for s in new if s != -1)
        new = [s for s in new if s != 1]
    runs = []
    for s, st in zip(shape, stride):
        if s == 1:
            continue
        if runs and runs[-1][1] == s * st:
            runs[-1] = [runs[-1][0] * s, st]
        else:
            runs.append([s, st])
    i = 0
    for count, _ in runs:
        acc = 1
        while acc < count and i < len(new):
            acc *= new[i]
            i += 1
        if acc != count:
            return False
    return True
''',
    "windows_impl": '''
def windows(x, size, step):
    if not x.shape:
        raise ValueError("x must have a dimension")
    if size <= 0 or step <= 0:
        raise ValueError("size and step must be positive")
    last = x.shape[-1]
    count = 0 if size > last else 1 + (last - size) // step
    *outer, s = x.stride()
    return x.as_strided((*x.shape[:-1], count, size), (*outer, s * step, s))
''',
    "result_dtype_impl": '''
def result_dtype(a, b):
    def info(v):
        if torch.is_tensor(v):
            return (2 if v.dim() else 1), v.dtype
        if type(v) is bool:
            return 0, torch.bool
        if type(v) is int:
            return 0, torch.long
        if type(v) is float:
            return 0, torch.get_default_dtype()
        return 0, {torch.float64: torch.cdouble}.get(torch.get_default_dtype(), torch.cfloat)

    def kind(dt):
        if dt is torch.bool:
            return 0
        if dt.is_complex:
            return 3
        if dt.is_floating_point:
            return 2
        return 1

    def join(x, y):
        if x == y:
            return x
        if kind(x) < kind(y):
            x, y = y, x
        if kind(x) > kind(y):
            if kind(x) == 3 and y == torch.float64:
                return torch.cdouble
            return x
        if kind(x) == 2:
            if {x, y} == {torch.half, torch.bfloat16}:
                return torch.float
            return x if x.itemsize >= y.itemsize else y
        if kind(x) == 3:
            return x if x.itemsize >= y.itemsize else y
        if x.is_signed != y.is_signed:
            signed = x if x.is_signed else y
            return torch.int16 if signed.itemsize == 1 else signed
        return x if x.itemsize >= y.itemsize else y

    (ta, da), (tb, db) = info(a), info(b)
    if ta == tb:
        return join(da, db)
    hi, lo = (da, db) if ta > tb else (db, da)
    if kind(lo) <= kind(hi):
        return hi
    if kind(hi) == 2 and kind(lo) == 3:
        return torch.cdouble if hi == torch.float64 else torch.cfloat
    return lo
''',
}
