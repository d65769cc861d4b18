"""Held-out round 29 (15-09), a correct answer written unusually: find_nan_origin uses the global switch
torch.autograd.set_detect_anomaly (restored in a finally, so also on KeyboardInterrupt), recognises anomaly
mode's report with str.find instead of a regular expression, and reads the frames of the warning line by line
with str methods (the last frame in loss_fn's file is the innermost one)."""
EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "pass", "zoo": "pass", "leaks": "pass"}
CELLS = {"anomaly_impl": '''
def find_nan_origin(loss_fn, x: torch.Tensor):
    """Run loss_fn(x).backward() under anomaly detection; return None, or {"op": node name, "lineno": line}."""
    head, tail = "Function '", "' returned nan values"
    previous = torch.is_anomaly_enabled()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch.autograd.set_detect_anomaly(True)
        try:
            loss_fn(x).backward()
        except RuntimeError as err:
            message = str(err)
            start, stop = message.find(head), message.find(tail)
            if start != 0 or stop < 0:
                raise
            op = message[len(head):stop]
        else:
            return None
        finally:
            torch.autograd.set_detect_anomaly(previous)
    wanted = loss_fn.__code__.co_filename
    lineno = None
    for w in caught:
        text = str(w.message)
        if ("Error detected in " + op + ".") not in text:
            continue
        for line in text.splitlines():
            line = line.strip()
            if not line.startswith('File "') or '", line ' not in line:
                continue
            name, _, rest = line[len('File "'):].rpartition('", line ')
            if name == wanted:
                lineno = int(rest.split(",")[0])
    return {"op": op, "lineno": lineno}
'''}
