"""Held-out round 2 (15-09 anomaly): the NaN report is recognised only for a node's 0th output.

The message copied from the notebook ("returned nan values in its 0th output") is matched literally; when
the NaN is in another output of the node (for a product a * b, the gradient for b is output 1), anomaly
mode says "in its 1th output" and the report propagates as an exception instead of being returned.
"""
EXPECT = {'anomaly': 'fail'}

CELLS = {
    'anomaly_impl': '''
def find_nan_origin(loss_fn, x: torch.Tensor):
    """Run loss_fn(x).backward() under anomaly detection; return None, or {"op": node name, "lineno": line}."""
    fname = loss_fn.__code__.co_filename
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            with torch.autograd.detect_anomaly():
                loss = loss_fn(x)
                loss.backward()
        except RuntimeError as err:
            m = re.search(r"Function '(\\w+)' returned nan values in its 0th output", str(err))
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
