"""Known-wrong pack_compressed (gap round): returns a closure that converts the bfloat16 copy back to t.dtype,
so the closure also holds t itself (the full-precision activation stays alive: nothing is saved)."""
from course.grading.class_run.submissions import edited

CELLS = {"compress_impl": edited("00-02", "compress_impl",
    ("    if t.dtype in (torch.float32, torch.float64):\n"
     "        return (t.to(torch.bfloat16), t.dtype)\n"
     "    return (t, None)",
     "    if t.dtype in (torch.float32, torch.float64):\n"
     "        b = t.to(torch.bfloat16)\n"
     "        return lambda: b.to(t.dtype)\n"
     "    return lambda: t"),
    ("    data, dtype = packed\n    return data if dtype is None else data.to(dtype)",
     "    return packed()"))}
EXPECT = {"compress": "fail"}
