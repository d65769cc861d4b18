"""Gap-hunting round (issue 39, 2026-12-01): ShardedFileStream gives file p to worker hash(p) % num_workers: consistent when the workers are forked from one process, but a worker started as a new process (spawn) salts str hashes differently, so files are read twice or never. Breaks: "each exactly once per pass, for any num_workers"."""
from course.grading.class_run.submissions import edited

CELLS = {"stream_impl": edited("15-02", "stream_impl", ('        for path in self.paths[wid::nw]:', '        for path in [p for p in self.paths if hash(p) % nw == wid]:'))}
EXPECT = {"stream": "fail"}
