"""Wrong: "it **streams**: files are opened during iteration only ... Loading one file at a time also keeps
memory small". This version loads the next file of its share before yielding the current file's records (to
overlap loading with use): two files are in memory at once, and a file is loaded before any of its records is
reached."""
from course.grading.class_run.submissions import edited

EXPECT = {"stream": "fail"}
CELLS = {"stream_impl": edited(
    "15-02", "stream_impl",
    ("        for path in self.paths[wid::nw]:\n"
     "            shard = torch.load(path)\n"
     "            for x, y in zip(shard[\"x\"], shard[\"y\"]):\n"
     "                yield x, int(y)\n",
     "        mine = self.paths[wid::nw]\n"
     "        nxt = torch.load(mine[0]) if mine else None\n"
     "        for k in range(len(mine)):\n"
     "            shard = nxt\n"
     "            nxt = torch.load(mine[k + 1]) if k + 1 < len(mine) else None  # prefetch the next file\n"
     "            for x, y in zip(shard[\"x\"], shard[\"y\"]):\n"
     "                yield x, int(y)\n"))}
