"""Correct, written differently (held-out round 21): to_device maps over the batch with torch.utils._pytree's
tree_map, which walks tuples (namedtuples kept as such), lists and dicts and hands every leaf to a function that
moves tensors and returns anything else unchanged."""
from course.grading.class_run.submissions import edited

EXPECT = {"trainer": "pass", "resume": "pass"}
CELLS = {"trainer_impl": edited(
    "15-10", "trainer_impl",
    ("        if isinstance(batch, torch.Tensor):\n"
     "            return batch.to(self.device)\n"
     "        if isinstance(batch, dict):\n"
     "            return {k: self.to_device(v) for k, v in batch.items()}\n"
     "        if isinstance(batch, (list, tuple)):\n"
     "            moved = [self.to_device(v) for v in batch]\n"
     "            return type(batch)(moved) if isinstance(batch, list) else tuple(moved)\n"
     "        return batch\n",
     "        from torch.utils import _pytree as pytree\n"
     "        return pytree.tree_map(lambda x: x.to(self.device) if isinstance(x, torch.Tensor) else x, batch)\n"))}
