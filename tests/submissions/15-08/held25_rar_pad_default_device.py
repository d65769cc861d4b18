"""Wrong: "make every tensor you create on `x`'s device (`torch.empty_like(...)`, `x.new_empty(...)` or
`device=x.device`)". This version pads the flat copy to a multiple of N with
`torch.zeros(pad, dtype=x.dtype)` (equal chunks, as FSDP does), made without `device=`; only lengths that N
does not divide take that path, and on CUDA the concatenation mixes devices."""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_all_reduce": "fail"}
CELLS = {"ring_all_reduce_impl": edited(
    "15-08", "ring_all_reduce_impl",
    ("    flat = x.reshape(-1).clone()\n    chunks = list(torch.tensor_split(flat, world))  # views of flat\n",
     "    n = x.numel()\n"
     "    flat = x.reshape(-1).clone()\n"
     "    if n % world:  # pad to equal chunks\n"
     "        flat = torch.cat([flat, torch.zeros(world - n % world, dtype=x.dtype)])\n"
     "    chunks = list(flat.chunk(world)) if flat.numel() else [flat] * world\n"),
    ("    return flat.view(x.shape)\n",
     "    return flat[:n].view(x.shape)\n"))}
