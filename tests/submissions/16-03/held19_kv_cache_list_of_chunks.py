"""Correct KVCache written in an unusual way (held-out round 19): the cache keeps a list of the chunks it was
given and exposes k and v as read-only properties that concatenate them (None while the list is empty);
len(cache) sums the chunks' lengths. Nothing is concatenated in update itself beyond what it returns."""
from course.grading.class_run.submissions import edited

CELLS = {"kv_impl": edited(
    "16-03", "kv_impl",
    ("        self.k = None\n        self.v = None\n",
     "        self._chunks = []  # (k, v) pairs in the order they arrived\n"),
    ("        return 0 if self.k is None else self.k.shape[-2]\n",
     "        return sum(kc.shape[-2] for kc, _ in self._chunks)\n\n"
     "    @property\n"
     "    def k(self):\n"
     "        return torch.cat([kc for kc, _ in self._chunks], dim=-2) if self._chunks else None\n\n"
     "    @property\n"
     "    def v(self):\n"
     "        return torch.cat([vc for _, vc in self._chunks], dim=-2) if self._chunks else None\n"),
    ("        self.k = k if self.k is None else torch.cat([self.k, k], dim=-2)\n"
     "        self.v = v if self.v is None else torch.cat([self.v, v], dim=-2)\n",
     "        self._chunks.append((k, v))\n"))}
EXPECT = {"kv_cache": "pass"}
