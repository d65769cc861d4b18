"""Known-wrong unpack_compressed (gap round): rebuilds the tensor with torch.empty(shape, dtype=...) and copies
into it, which puts it on the default device: the device of a GPU activation is lost (the text asks for the
original shape, dtype and device)."""
from course.grading.class_run.submissions import edited

CELLS = {"compress_impl": edited("00-02", "compress_impl",
    ("    return data if dtype is None else data.to(dtype)",
     "    if dtype is None:\n        return data\n    return torch.empty(data.shape, dtype=dtype).copy_(data)"))}
EXPECT = {"compress": "fail"}
