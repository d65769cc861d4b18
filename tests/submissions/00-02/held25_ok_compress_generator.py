"""Held-out round 25, correct: the packed form is a dict holding only the bfloat16 copy and the original dtype
(kept tensors are stored under another key), and `compressed_saved_tensors` is a `contextlib.contextmanager`
generator wrapping `saved_tensors_hooks`, so the hooks go away when the block ends, also by an exception, which
propagates."""
from course.grading.class_run.submissions import edited

EXPECT = {"graph": "pass", "engine": "pass", "compress": "pass", "evaluate": "pass", "checkpoint": "pass"}
CELLS = {"compress_impl": edited(
    "00-02", "compress_impl",
    ("    if t.dtype in (torch.float32, torch.float64):\n"
     "        return (t.to(torch.bfloat16), t.dtype)\n"
     "    return (t, None)\n",
     "    if t.dtype in (torch.float32, torch.float64):\n"
     "        return {\"bf16\": t.to(torch.bfloat16), \"dtype\": t.dtype}\n"
     "    return {\"kept\": t}\n"),
    ("    data, dtype = packed\n"
     "    return data if dtype is None else data.to(dtype)\n",
     "    if \"kept\" in packed:\n"
     "        return packed[\"kept\"]\n"
     "    return packed[\"bf16\"].to(packed[\"dtype\"])\n"),
    ("    return torch.autograd.graph.saved_tensors_hooks(pack_compressed, unpack_compressed)\n",
     "    @contextlib.contextmanager\n"
     "    def hooks():\n"
     "        with torch.autograd.graph.saved_tensors_hooks(pack_compressed, unpack_compressed):\n"
     "            yield\n"
     "    return hooks()\n"))}
