"""Breaks: "the innermost frame of its forward traceback whose file is the file that defines `loss_fn`
(`loss_fn.__code__.co_filename`)".

Frames are matched by the file's base name only (os.path.basename), so a frame from another file with
the same name, for example torch's own nn/functional.py when the loss lives in a file called
functional.py, counts as the loss's file; the innermost such frame is then torch's line.
"""
EXPECT = {"anomaly": "fail"}

CELLS = {
    "anomaly_impl": '''
import os


def find_nan_origin(loss_fn, x: torch.Tensor):
    """Run loss_fn(x).backward() under anomaly detection; return None, or {"op": node name, "lineno": line}."""
    wanted = os.path.basename(loss_fn.__code__.co_filename)
    torch.autograd.set_detect_anomaly(True)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                loss_fn(x).backward()
                return None
            except RuntimeError as err:
                found = re.match(r"Function '([^']+)' returned nan values in its \\d+\\w* output", str(err))
                if found is None:
                    raise
                op = found.group(1)
    finally:
        torch.autograd.set_detect_anomaly(False)
    lineno = None
    for w in caught:
        text = str(w.message)
        if not text.startswith(f"Error detected in {op}."):
            continue
        for path, line in re.findall(r'File "([^"]+)", line (\\d+)', text):
            if os.path.basename(path) == wanted:
                lineno = int(line)
    return {"op": op, "lineno": lineno}
''',
}
