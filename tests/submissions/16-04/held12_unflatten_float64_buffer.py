# unflatten_shards concatenates the shards in float64 and casts each tensor back: int64 values beyond
# 2**53 come back rounded ("holding the original values").
from course.grading.class_run.submissions import edited

EXPECT = {"shard": "fail"}
CELLS = {"shard_impl": edited("16-04", "shard_impl", (
    "    flat = torch.cat([s.reshape(-1) for s in shards])\n",
    "    flat = torch.cat([s.reshape(-1).to(torch.float64) for s in shards])\n"), (
    "        out.append(flat[start:start + size].reshape(shape).clone())\n",
    "        out.append(flat[start:start + size].reshape(shape).to(shards[0].dtype))\n"))}
