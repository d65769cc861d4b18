"""memory_growth puts the counters into float32 tensors to take differences with torch.diff. float32 holds integers
exactly only up to 2**24 (16 MiB): a GPU holding 3 GB (allocated_bytes.all.current about 3e9, where float32's spacing is
256 bytes) that leaks 100 bytes per iteration reads as 0 or 256, so "the smallest increase of
allocated_bytes.all.current between consecutive snapshots" and "leaking" come out wrong. Wrong for snapshots [3_000_000_000, 3_000_000_100,
3_000_000_200] (bytes_per_iter 100 expected, 0 or 256 returned)."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "pass", "zoo": "pass", "leaks": "fail"}
CELLS = {"leaks_impl": edited("15-09", "leaks_impl", (
    """    b = [int(s["allocated_bytes.all.current"]) for s in snapshots]
    a = [int(s["allocation.all.current"]) for s in snapshots]
    per_bytes = min(y - x for x, y in zip(b, b[1:]))
    per_allocs = min(y - x for x, y in zip(a, a[1:]))
""",
    """    b = torch.tensor([s["allocated_bytes.all.current"] for s in snapshots], dtype=torch.float)
    a = torch.tensor([s["allocation.all.current"] for s in snapshots], dtype=torch.float)
    per_bytes = int(torch.diff(b).min())
    per_allocs = int(torch.diff(a).min())
"""))}
