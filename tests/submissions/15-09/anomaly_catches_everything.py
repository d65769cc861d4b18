"""find_nan_origin that turns every RuntimeError into a report, switches anomaly mode on globally and
never off, and lets anomaly mode's warnings escape."""
EXPECT = {"anomaly": "fail"}
CELLS = {
    "anomaly_impl": '''
def find_nan_origin(loss_fn, x):
    torch.autograd.set_detect_anomaly(True)
    try:
        loss_fn(x).backward()
    except RuntimeError as err:
        m = re.search(r"Function '(\\w+)'", str(err))
        return {"op": m.group(1) if m else None, "lineno": loss_fn.__code__.co_firstlineno + 1}
    return None
''',
}
