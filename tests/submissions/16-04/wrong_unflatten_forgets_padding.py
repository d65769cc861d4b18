"""unflatten_shards splits the concatenated shards by the tensors' sizes and forgets the padding at the end:
torch.split raises whenever W does not divide n."""
from course.grading.class_run.submissions import edited

EXPECT = {"shard": "fail"}
CELLS = {"shard_impl": edited("16-04", "shard_impl", ("""    out, start = [], 0
    for shape in shapes:
        size = math.prod(shape)
        out.append(flat[start:start + size].reshape(shape).clone())
        start += size
    return out""", """    pieces = flat.split([math.prod(s) for s in shapes])
    return [p.reshape(s).clone() for p, s in zip(pieces, shapes)]"""))}
