"""Wrong: "each exactly once per pass, for any `num_workers`" and "it can be iterated again". This version
works out its share of the files on its first pass and keeps it on the object: after one pass in the main
process (num_workers=0, share = every file), a DataLoader with 2 workers copies that cached share into each
worker, and every record comes twice."""
from course.grading.class_run.submissions import edited

EXPECT = {"stream": "fail"}
CELLS = {"stream_impl": edited(
    "15-02", "stream_impl",
    ("        info = get_worker_info()\n"
     "        wid, nw = (0, 1) if info is None else (info.id, info.num_workers)\n"
     "        for path in self.paths[wid::nw]:\n",
     "        if getattr(self, '_mine', None) is None:\n"
     "            info = get_worker_info()\n"
     "            wid, nw = (0, 1) if info is None else (info.id, info.num_workers)\n"
     "            self._mine = self.paths[wid::nw]\n"
     "        for path in self._mine:\n"))}
