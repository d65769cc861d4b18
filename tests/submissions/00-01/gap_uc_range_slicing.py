"""Unusual but correct (gap round): view_meta's slice lets Python's own range do the clamping
(range(size)[start:stop:step] gives the first index and the count), and windows counts its windows
with len(range(...)) and takes sizes and strides through x.size() and x.stride(d)."""
from course.grading.class_run.submissions import edited

CELLS = {
    "view_meta_impl": edited("00-01", "view_meta_impl",
        ("        size = shape[d]\n"
         "        start = 0 if start is None else start + size if start < 0 else start\n"
         "        stop = size if stop is None else stop + size if stop < 0 else stop\n"
         "        start = min(max(start, 0), size)\n"
         "        stop = min(max(stop, start), size)\n"
         "        offset += start * stride[d]\n"
         "        shape[d] = (stop - start + step - 1) // step\n",
         "        picked = range(shape[d])[start:stop:step]\n"
         "        if len(picked):\n"
         "            offset += picked.start * stride[d]\n"
         "        shape[d] = len(picked)\n")),
    "windows_impl": '''def windows(x, size, step):
    """Windows of `size` elements every `step` elements along x's last dimension, as a view of x."""
    if not x.dim():
        raise ValueError("windows needs at least one dimension")
    if min(size, step) < 1:
        raise ValueError("size and step must be at least 1")
    starts = range(0, x.size(-1) - size + 1, step)
    sizes = list(x.size())[:-1] + [len(starts), size]
    strides = [x.stride(d) for d in range(x.dim() - 1)] + [x.stride(-1) * step, x.stride(-1)]
    return torch.as_strided(x, sizes, strides, x.storage_offset())
''',
}
EXPECT = {"view_meta": "pass", "windows": "pass"}
