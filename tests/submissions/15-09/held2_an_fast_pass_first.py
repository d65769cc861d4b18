"""Held-out round 2 (15-09 anomaly): a fast pass without anomaly mode first, anomaly mode only when x.grad has a NaN.

The text runs loss_fn(x) and backward once, with anomaly detection on. Here loss_fn and backward run twice
when a NaN appears (loss_fn's side effects happen twice and x.grad accumulates twice), and a NaN that
backward produces and a later node masks (torch.where's backward zeroes it) leaves x.grad finite, so the
function returns None where anomaly mode would have reported the node.
"""
EXPECT = {'anomaly': 'fail'}

CELLS = {
    'anomaly_impl': '''
def find_nan_origin(loss_fn, x: torch.Tensor):
    """Run loss_fn(x).backward() under anomaly detection; return None, or {"op": node name, "lineno": line}."""
    fname = loss_fn.__code__.co_filename
    loss_fn(x).backward()                      # cheap check first: anomaly mode is slow
    if x.grad is None or not torch.isnan(x.grad).any():
        return None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            with torch.autograd.detect_anomaly():
                loss = loss_fn(x)
                loss.backward()
        except RuntimeError as err:
            m = re.search(r"Function '(\\w+)' returned nan values in its \\d+th output", str(err))
            if m is None:
                raise
            op = m.group(1)
        else:
            return None
    lineno = None
    for w in caught:
        for frame in re.finditer(r'File "([^"]+)", line (\\d+)', str(w.message)):
            if frame.group(1) == fname:
                lineno = int(frame.group(2))      # the last match is the innermost frame
    return {"op": op, "lineno": lineno}
''',
}
