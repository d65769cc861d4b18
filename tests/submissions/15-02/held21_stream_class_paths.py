"""Wrong: "iterating yields `(X[j], int(Y[j]))` for every record of every file, each exactly once per pass"
(the files given to *this* data set). This version keeps the paths in a list that is a class attribute, so
every `ShardedFileStream` built in the program adds its files to the same list: a second data set also
streams the first one's files."""
from course.grading.class_run.submissions import edited

EXPECT = {"stream": "fail"}
CELLS = {"stream_impl": edited(
    "15-02", "stream_impl",
    ("    \"\"\"Stream (x, y) records from torch.save'd shard files, split across DataLoader workers.\"\"\"\n",
     "    \"\"\"Stream (x, y) records from torch.save'd shard files, split across DataLoader workers.\"\"\"\n"
     "    paths = []\n"),
    ("        self.paths = [str(p) for p in paths]\n",
     "        self.paths.extend(str(p) for p in paths)\n"))}
