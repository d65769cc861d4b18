"""Known-wrong zero3_step (held-out round 21): like FSDP's mixed precision, each layer's shard is all-gathered in
float32 (half the bytes for float64 shards) and the rebuilt parameters are cast back to the shards' dtype, so
float64 layers run on parameters rounded to float32 ("every rank's shards hold exactly what one step of
torch.optim.AdamW ... gives on a single process that trains the unsplit model")."""
from course.grading.class_run.submissions import edited

CELLS = {"zero3_impl": edited("16-04", "zero3_impl", (
    "        pieces = [torch.empty_like(shards[i]) for _ in range(world)]\n"
    "        dist.all_gather(pieces, shards[i])\n"
    "        return unflatten_shards(pieces, layers[i].shapes)\n",
    "        low = shards[i].float()\n"
    "        pieces = [torch.empty_like(low) for _ in range(world)]\n"
    "        dist.all_gather(pieces, low)\n"
    "        return [p.to(shards[i].dtype) for p in unflatten_shards(pieces, layers[i].shapes)]\n"))}
EXPECT = {'shard': 'pass', 'zero1': 'pass', 'zero2': 'pass', 'zero3': 'fail', 'schedule': 'pass', 'pipeline': 'pass'}
