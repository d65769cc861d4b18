"""Wrong: "it can be iterated again (every pass yields everything again)". This version is its own
iterator: `__iter__` resets cursors stored on the object and returns `self`. One pass after another works,
but two passes at once (zip(ds, ds), two loaders over one data set in the main process) share the cursor and
each yields only part of the records."""
from course.grading.class_run.submissions import edited

EXPECT = {"stream": "fail"}
CELLS = {"stream_impl": edited(
    "15-02", "stream_impl",
    ("        info = get_worker_info()\n"
     "        wid, nw = (0, 1) if info is None else (info.id, info.num_workers)\n"
     "        for path in self.paths[wid::nw]:\n"
     "            shard = torch.load(path)\n"
     "            for x, y in zip(shard[\"x\"], shard[\"y\"]):\n"
     "                yield x, int(y)\n",
     "        info = get_worker_info()\n"
     "        wid, nw = (0, 1) if info is None else (info.id, info.num_workers)\n"
     "        self._files = iter(self.paths[wid::nw])\n"
     "        self._records = iter(())\n"
     "        return self\n"
     "\n"
     "    def __next__(self):\n"
     "        while True:\n"
     "            try:\n"
     "                x, y = next(self._records)\n"
     "                return x, int(y)\n"
     "            except StopIteration:\n"
     "                shard = torch.load(next(self._files))  # StopIteration at the end ends the pass\n"
     "                self._records = zip(shard[\"x\"], shard[\"y\"])\n"))}
