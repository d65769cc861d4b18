"""Known-wrong CausalSelfAttention (round 23s): the bottom-right masks are memoised on the module in a dict keyed
by (P, T), without the device. Every call on one device is right; a module used on the CPU and then moved with
.to(device) reuses the CPU masks, where the text says the masks forward builds are on x's device."""
from course.grading.class_run.submissions import edited

CELLS = {"kv_impl": edited(
    "16-03", "kv_impl",
    ("        seen = torch.arange(past + t, device=x.device)[None, :] <= past + torch.arange(t, device=x.device)[:, None]\n",
     "        masks = self.__dict__.setdefault('_masks', {})\n"
     "        if (past, t) not in masks:\n"
     "            masks[(past, t)] = torch.arange(past + t, device=x.device)[None, :] <= past + torch.arange(t, device=x.device)[:, None]\n"
     "        seen = masks[(past, t)]\n"))}
EXPECT = {"kv_cache": "fail"}
