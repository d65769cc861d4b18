"""Wrong: "every `__iter__` (epoch) yields those batches ... in a random order drawn **only** from `generator`
...; restoring its state with `set_state` (as a resumed run does) repeats the epochs that followed". This version
shuffles its own list of batches in place each epoch (`self.batches = [self.batches[k] for k in perm]`), so an
epoch's order is the product of every permutation drawn so far: the same generator state gives another order on a
sampler that has already run an epoch, and a resumed run (a new sampler, generator state restored after epoch 1)
does not repeat epoch 2."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "fail", "balanced": "pass", "collate": "pass", "packed_rnn": "pass", "stream": "pass"}
CELLS = {"bucket_sampler_impl": edited(
    "15-02", "bucket_sampler_impl",
    ("        for k in torch.randperm(len(self.batches), generator=self.generator).tolist():\n"
     "            yield list(self.batches[k])\n",
     "        perm = torch.randperm(len(self.batches), generator=self.generator).tolist()\n"
     "        self.batches = [self.batches[k] for k in perm]\n"
     "        for b in self.batches:\n"
     "            yield list(b)\n"))}
