"""Realistic mistakes: the first forward frame instead of the innermost one; a monitor that reads .grad
(which accumulates) instead of what each backward delivered."""
EXPECT = {"anomaly": "fail", "gradcheck": "pass", "monitor": "fail", "zoo": "pass", "leaks": "pass"}
JUDGE_PASS = True  # judged on its passing tasks too: a mistake in one task costs no points in another
CELLS = {
    "anomaly_impl": '''
def find_nan_origin(loss_fn, x):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            with torch.autograd.detect_anomaly():
                loss_fn(x).backward()
            return None
        except RuntimeError as err:
            m = re.search(r"Function '(\\w+)' returned nan", str(err))
            if m is None:
                raise
    for w in caught:
        text = str(w.message)
        if "Traceback of forward call" in text:
            for fname, line in re.findall(r'File "(.*)", line (\\d+)', text):
                if fname == loss_fn.__code__.co_filename:
                    return {"op": m.group(1), "lineno": int(line)}
    return {"op": m.group(1), "lineno": None}
''',
    "monitor_impl": '''
class GradMonitor:
    def __init__(self, model):
        self.model = model
        self.handles = [p.register_hook(lambda g: None) for p in model.parameters() if p.requires_grad]

    def norms(self):
        out = {}
        for name, m in self.model.named_modules():
            own = [p for p in m.parameters(recurse=False) if p.requires_grad]
            if own:
                sq = sum(float(p.grad.double().pow(2).sum()) if p.grad is not None else 0.0 for p in own)
                out[name] = math.sqrt(sq)
        return out

    def clear(self):
        pass

    def diagnose(self, low, high):
        norms = self.norms()
        for name, n in norms.items():
            if not math.isfinite(n):
                return ("nonfinite", name)
        if any(n > high for n in norms.values()):
            return ("exploding", max(norms, key=norms.get))
        if any(n < low for n in norms.values()):
            return ("vanishing", min(norms, key=norms.get))
        return None

    def remove(self):
        for h in self.handles:
            h.remove()
''',
}
