"""Correct, written differently: flatten_shard and unflatten_shards through torch._utils' dense-tensor
helpers (_flatten_dense_tensors, and _unflatten_dense_tensors with meta-device stand-ins for the shapes),
the padded piece cut with narrow."""
EXPECT = {"shard": "pass"}
CELLS = {"shard_impl": '''
from torch._utils import _flatten_dense_tensors, _unflatten_dense_tensors


def flatten_shard(tensors, world, rank):
    flat = _flatten_dense_tensors([t.contiguous() for t in tensors])
    per = (flat.numel() + world - 1) // world
    padded = torch.cat([flat, flat.new_zeros(per * world - flat.numel())])
    return padded.narrow(0, rank * per, per).clone()


def unflatten_shards(shards, shapes):
    joined = torch.cat([s.reshape(-1) for s in shards])
    stand_ins = [torch.empty(tuple(s), device="meta") for s in shapes]
    used = sum(t.numel() for t in stand_ins)
    return [t.clone() for t in _unflatten_dense_tensors(joined[:used], stand_ins)]
'''}
