"""Held-out round 10, a CORRECT answer written in an unusual way: the sampler mixes (seed, epoch) into one
32-bit seed with a multiplicative hash (torch's CPU generator keeps only a seed's low 32 bits, so packing the
seed into the high half would ignore it), hands out indices through a small iterator class whose __next__ advances pos
before it returns an index, and keeps the pending resume position in the same `_resume_pos` field the
skeleton declares; make_loader passes the sampler and a generator built inline. Every task should pass."""
from course.grading.class_run.submissions import edited

EXPECT = {"clipping": "pass", "sampler": "pass", "rng": "pass", "callbacks": "pass", "checkpoint": "pass",
          "trainer": "pass", "resume": "pass"}
CELLS = {"sampler_impl": edited(
    "15-10", "sampler_impl",
    ("        g = torch.Generator().manual_seed(self.seed * 1_000_003 + int(epoch))\n"
     "        return torch.randperm(self.num_samples, generator=g).tolist()\n",
     "        g = torch.Generator()\n"
     "        g.manual_seed((self.seed * 0x9E3779B1 + int(epoch)) % (1 << 32))\n"
     "        return [int(i) for i in torch.randperm(self.num_samples, generator=g)]\n"),
    ("        order = self.permutation(self.epoch)\n"
     "        start = self._resume_pos if self._resume_pos is not None else 0\n"
     "        self._resume_pos = None\n"
     "        self.pos = start\n"
     "        for i in range(start, self.num_samples):\n"
     "            self.pos = i + 1  # counted when handed out: code after `yield` runs only on the next request\n"
     "            yield order[i]\n",
     "        sampler, order = self, self.permutation(self.epoch)\n"
     "        self.pos, self._resume_pos = (self._resume_pos or 0), None\n\n"
     "        class _Pass:\n"
     "            def __iter__(it):\n"
     "                return it\n\n"
     "            def __next__(it):\n"
     "                if sampler.pos >= len(order):\n"
     "                    raise StopIteration\n"
     "                sampler.pos += 1\n"
     "                return order[sampler.pos - 1]\n\n"
     "        return _Pass()\n"))}
