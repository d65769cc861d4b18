"""Held-out round 2 (15-09 anomaly): the node name is matched as r"\\w+Backward\\d+".

Built-in nodes are named like LogBackward0, but the backward node of a custom torch.autograd.Function is
named after the class with no number (MyFnBackward): the regex does not match anomaly mode's NaN report for
such a node, so the report is re-raised instead of returned as {"op": "MyFnBackward", ...}.
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
            m = re.search(r"Function '(\\w+Backward\\d+)' returned nan values", str(err))
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
