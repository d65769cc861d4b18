"""Known-wrong CausalSelfAttention (round 16): the module counts the positions it has decoded itself (reset
when it sees an empty cache) instead of reading len(cache): sequences decoded one after the other work, but
two caches used in turn by one module (several caches in use at once) get each other's position count."""
from course.grading.class_run.submissions import edited

CELLS = {"kv_impl": edited("16-03", "kv_impl",
    ("            past = len(cache)\n            k, v = cache.update(k, v)\n",
     "            if len(cache) == 0:\n"
     "                self._decoded = 0  # a new sequence starts\n"
     "            past = getattr(self, \"_decoded\", len(cache))\n"
     "            self._decoded = past + t\n"
     "            k, v = cache.update(k, v)\n"),
    ("        seen = torch.arange(past + t, device=x.device)[None, :] <= past + torch.arange(t, device=x.device)[:, None]",
     "        seen = torch.arange(k.shape[-2], device=x.device)[None, :] <= past + torch.arange(t, device=x.device)[:, None]"))}
EXPECT = {"kv_cache": "fail"}
