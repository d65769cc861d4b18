"""Splits every file's records with X.chunk(num_workers)[id]: chunk returns fewer pieces than workers for
a file with fewer records than workers, so that worker fails (IndexError) on a 1-record shard."""
from course.grading.class_run.submissions import edited

EXPECT = {"stream": "fail"}
CELLS = {"stream_impl": edited("15-02", "stream_impl", (
    '''        for path in self.paths[wid::nw]:
            shard = torch.load(path)
            for x, y in zip(shard["x"], shard["y"]):
                yield x, int(y)
''',
    '''        for path in self.paths:
            shard = torch.load(path)
            xs, ys = shard["x"].chunk(nw)[wid], shard["y"].chunk(nw)[wid]
            for x, y in zip(xs, ys):
                yield x, int(y)
'''))}
