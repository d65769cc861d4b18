"""Unusual but correct (held-out round 14): flatten_shard pads with torch.nn.functional.pad and cuts with
tensor_split (W pieces of k, also when k is 0); unflatten_shards splits the joined shards by the shapes' sizes plus
the padding's and clones each piece; bubble_fraction counts busy slots with a Counter and converts an exact
Fraction to a Python float."""
CELLS = {"shard_impl": '''def flatten_shard(tensors: list[torch.Tensor], world: int, rank: int) -> torch.Tensor:
    ### BEGIN SOLUTION
    import torch.nn.functional as F
    flat = torch.cat([t.flatten() for t in tensors])
    n = flat.numel()
    k = (n + world - 1) // world
    return F.pad(flat, (0, world * k - n)).tensor_split(world)[rank].clone()
    ### END SOLUTION


def unflatten_shards(shards: list[torch.Tensor], shapes: list) -> list[torch.Tensor]:
    ### BEGIN SOLUTION
    joined = torch.cat(list(shards))
    sizes = [math.prod(s) for s in shapes]
    pieces = joined.split(sizes + [joined.numel() - sum(sizes)])
    return [piece.reshape(shape).clone(memory_format=torch.contiguous_format) for piece, shape in zip(pieces, shapes)]
    ### END SOLUTION
''',
         "schedule_impl": None}


def _schedule_cell():
    from course.grading.class_run.submissions import edited
    return edited("16-04", "schedule_impl", (
        "    T = 1 + max(t for t, _, _, _ in schedule)\n    busy = len({(t, s) for t, s, _, _ in schedule})\n"
        "    return 1.0 - busy / (S * T)\n",
        "    from collections import Counter\n    from fractions import Fraction\n"
        "    per_slot = Counter((s, t) for t, s, _, _ in schedule)\n"
        "    T = max(t for _, t in per_slot) + 1\n"
        "    return float(Fraction(S * T - len(per_slot), S * T))\n"))


CELLS["schedule_impl"] = _schedule_cell()
EXPECT = {"shard": "pass", "zero1": "pass", "zero2": "pass", "zero3": "pass", "schedule": "pass", "pipeline": "pass"}
