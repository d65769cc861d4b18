"""Wrong: "iterating yields `(X[j], int(Y[j]))` for every record of every file, each exactly once per pass, for
any `num_workers` (0, 1, 2, ...): no duplicates, no losses". This version gives each worker a contiguous run of
`per = int(len(paths) / num_workers + 0.5)` files (rounded to the nearest, for even chunks). With 1 or 2
workers that is enough to cover every file, but with 3 workers and 4 files `per` is 1 and the fourth file is
never read (with 10 files, the tenth)."""
from course.grading.class_run.submissions import edited

EXPECT = {"stream": "fail"}
CELLS = {"stream_impl": edited(
    "15-02", "stream_impl",
    ("        for path in self.paths[wid::nw]:\n",
     "        per = int(len(self.paths) / nw + 0.5)\n"
     "        for path in self.paths[wid * per:(wid + 1) * per]:\n"))}
