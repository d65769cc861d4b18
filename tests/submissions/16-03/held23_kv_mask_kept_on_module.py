"""Known-wrong CausalSelfAttention (round 23): the causal mask is kept on the module and rebuilt only when
(P, T) changes, keyed without the device. Each mask is right and is first built on x's device, but a module
used on the CPU and then moved to a GPU (or any other device) reuses the CPU mask for the same (P, T), and
attention refuses it: the text says the masks forward builds are on x's device."""
from course.grading.class_run.submissions import edited

CELLS = {"kv_impl": edited(
    "16-03", "kv_impl",
    ("        seen = torch.arange(past + t, device=x.device)[None, :] <= past + torch.arange(t, device=x.device)[:, None]\n",
     "        if getattr(self, '_mask_key', None) != (past, t):\n"
     "            self._mask_key = (past, t)\n"
     "            self._mask = torch.arange(past + t, device=x.device)[None, :] <= past + torch.arange(t, device=x.device)[:, None]\n"
     "        seen = self._mask\n"))}
EXPECT = {"kv_cache": "fail"}
