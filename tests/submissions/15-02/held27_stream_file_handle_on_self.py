"""Wrong: "Where workers are fresh processes (the `spawn` start method, the default on macOS and Windows) each
one's copy of the data set is made by pickling, so keep only picklable state on it (no lambdas, local functions or
open files)" together with "it can be iterated again". This version opens each shard itself and keeps the file
object on the data set (`self._file`, so that an abandoned pass could close it later), closing it when the
shard is done. A data set that has been iterated once (a record count, a first epoch with num_workers=0) holds a
file object, which cannot be pickled: the next `DataLoader(..., num_workers=2)` with spawn fails with
"cannot pickle '_io.BufferedReader' object"."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "pass", "balanced": "pass", "collate": "pass", "packed_rnn": "pass", "stream": "fail"}
CELLS = {"stream_impl": edited(
    "15-02", "stream_impl",
    ("            shard = torch.load(path)\n",
     "            self._file = open(path, \"rb\")\n"
     "            try:\n"
     "                shard = torch.load(self._file)\n"
     "            finally:\n"
     "                self._file.close()\n"))}
