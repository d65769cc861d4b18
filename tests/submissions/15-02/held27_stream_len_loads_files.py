"""Wrong: "it **streams**: files are opened during iteration only, never in `__init__` (a file may not even exist
yet when the data set is built)". This version adds a `__len__` (so that `len(loader)` and `tqdm(loader)` show a
total) that loads every shard to count its records. Asking the length, as `tqdm(loader)` does before the first
batch, reads every file outside iteration: all of them at once, and FileNotFoundError for a file that is written
only later."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "pass", "balanced": "pass", "collate": "pass", "packed_rnn": "pass", "stream": "fail"}
CELLS = {"stream_impl": edited(
    "15-02", "stream_impl",
    ("    def __iter__(self):\n",
     "    def __len__(self):\n"
     "        return sum(len(torch.load(path)[\"y\"]) for path in self.paths)\n\n"
     "    def __iter__(self):\n"))}
