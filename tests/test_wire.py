"""course.wire: the frame format of the judge's requests and the worker's replies.

It must read back exactly what torch.save and torch.load(weights_only=True) gave before (types, bits,
shapes, strides, offsets, shared storages, requires_grad), write nothing it cannot (the sender then falls
back to torch.save), and read a hostile frame into plain data within the limits or refuse it with
plain.NotPlain, never another exception and never memory beyond the bytes it came with."""
import collections
import io
import struct

import pytest
import torch
from hypothesis import HealthCheck, given, settings, strategies as st

from course import plain
from course import wire

DTYPES = [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.complex64, torch.int64, torch.int32,
          torch.int16, torch.int8, torch.uint8, torch.bool]


def torch_round_trip(value):
    bio = io.BytesIO()
    torch.save(value, bio)
    return torch.load(io.BytesIO(bio.getvalue()), weights_only=True)


def same(a, b, path="value") -> None:
    """``a`` and ``b`` are the same plain data, bit for bit (NaN payloads and signed zeros included)."""
    assert type(a) is type(b), f"{path}: {type(a).__name__} against {type(b).__name__}"
    if isinstance(a, torch.Tensor):
        assert (a.dtype, a.shape, a.stride(), a.storage_offset(), a.requires_grad) == \
               (b.dtype, b.shape, b.stride(), b.storage_offset(), b.requires_grad), path
        assert a.untyped_storage().nbytes() == b.untyped_storage().nbytes(), path
        def bits(t):  # a fresh tensor of default strides, read as bytes
            fresh = torch.empty(t.shape, dtype=t.dtype).copy_(t.detach()).reshape(-1)
            return fresh if t.dtype == torch.bool else fresh.view(torch.uint8)
        assert torch.equal(bits(a), bits(b)), path
    elif isinstance(a, dict):
        assert list(a) == list(b), path
        for k in a:
            same(a[k], b[k], f"{path}[{k!r}]")
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b)):
            same(x, y, f"{path}[{i}]")
    elif isinstance(a, float):
        assert struct.pack("<d", a) == struct.pack("<d", b), path
    elif isinstance(a, complex):
        assert struct.pack("<dd", a.real, a.imag) == struct.pack("<dd", b.real, b.imag), path
    else:
        assert a == b, path


@st.composite
def tensors(draw):
    dtype = draw(st.sampled_from(DTYPES))
    shape = draw(st.lists(st.integers(0, 4), max_size=3))
    n = 1
    for s in shape:
        n *= s
    base = torch.randint(0, 256, (n * torch.empty(0, dtype=dtype).element_size() + 16,), dtype=torch.uint8,
                         generator=torch.Generator().manual_seed(draw(st.integers(0, 2**31))))
    if dtype == torch.bool:
        base = base % 2
    t = base.view(dtype)[: n].reshape(shape) if dtype != torch.bool else base.bool()[:n].reshape(shape)
    view = draw(st.sampled_from(["as is", "transpose", "slice", "expand", "grad"]))
    if view == "transpose" and t.dim() >= 2:
        t = t.transpose(0, 1)
    elif view == "slice" and t.dim() >= 1 and t.shape[0] > 1:
        t = t[1::2]
    elif view == "expand":
        t = t.reshape(-1)[:1].expand(3, 2) if t.numel() else t
    elif view == "grad" and (dtype.is_floating_point or dtype.is_complex):
        t = t.clone().requires_grad_(True)
    return t


atoms = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(allow_nan=True),
                  st.complex_numbers(allow_nan=True), st.text(max_size=20),
                  st.binary(min_size=1, max_size=20),  # torch will not load b""
                  st.sampled_from(DTYPES), st.sampled_from([torch.device("cpu"), torch.device("cuda", 1)]),
                  st.lists(st.integers(0, 9), max_size=4).map(torch.Size), tensors())
keys = st.one_of(st.text(max_size=8), st.integers(-5, 5), st.tuples(st.integers(0, 3), st.text(max_size=3)))
values = st.recursive(atoms, lambda kids: st.one_of(
    st.lists(kids, max_size=4), st.lists(kids, max_size=3).map(tuple), st.dictionaries(keys, kids, max_size=4),
    st.dictionaries(keys, kids, max_size=3).map(collections.OrderedDict)), max_leaves=20)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(values)
def test_a_frame_reads_back_what_torch_load_gave(value):
    same(wire.loads(wire.dumps(value), max_elements=10**6), torch_round_trip(value))


def test_views_of_one_storage_stay_views_of_one_storage():
    x = torch.arange(24.0).reshape(4, 6)
    back = wire.loads(wire.dumps({"a": x[1:, ::2], "b": x.t(), "c": x}))
    same(back, torch_round_trip({"a": x[1:, ::2], "b": x.t(), "c": x}))
    ptrs = {back[k].untyped_storage().data_ptr() for k in back}
    assert len(ptrs) == 1, "three views of one tensor came back over separate storages"
    back["c"][0, 0] = -1.0
    assert back["b"][0, 0] == -1.0


def test_a_state_dict_keeps_torch_save_for_requests_and_drops_metadata_in_replies():
    sd = torch.nn.BatchNorm1d(3).state_dict()
    assert hasattr(sd, "_metadata")
    with pytest.raises(wire.Unencodable):
        wire.dumps(sd)  # load_state_dict in the worker reads _metadata: torch.save keeps it
    back = wire.loads(wire.dumps(sd, drop_attributes=True))
    assert type(back) is collections.OrderedDict and not vars(back)
    same(dict(back), dict(plain.check(torch_round_trip(sd))))


class Sub(torch.Tensor):
    pass


@pytest.mark.parametrize("value", [
    torch.nn.Parameter(torch.ones(2)), {1, 2}, frozenset(), torch.ones(2).to_sparse(),
    torch.ones(2, dtype=torch.cfloat).conj(),
    torch.ones(2).as_subclass(Sub), torch.ones(2, dtype=torch.uint16), torch.device, compile("1", "<s>", "eval"),
    [True, object()], {"k": (1, 2.0, torch.float8_e4m3fn)}, collections.Counter(a=1), type("I", (int,), {})(3),
], ids=lambda v: type(v).__name__)
def test_what_the_format_does_not_write_is_left_to_torch_save(value):
    with pytest.raises(wire.Unencodable):
        wire.dumps(value)


def frame(storages: list[bytes], body: bytes) -> bytes:
    out = wire.MAGIC + struct.pack("<I", len(storages))
    for s in storages:
        out += struct.pack("<Q", len(s)) + s
    return out + body


def tensor_body(index=0, dtype=0, offset=0, shape=(2,), stride=(1,), grad=0) -> bytes:
    return (b"X" + struct.pack("<IBqB", index, dtype, offset, len(shape)) + struct.pack(f"<{len(shape)}q", *shape)
            + struct.pack(f"<{len(stride)}q", *stride) + bytes([grad]))


HOSTILE = {
    "a view past its storage": frame([b"\0" * 8], tensor_body(shape=(3,))),
    "an offset past its storage": frame([b"\0" * 8], tensor_body(offset=2, shape=(1,))),
    "a negative stride": frame([b"\0" * 8], tensor_body(shape=(2,), stride=(-1,))),
    "a negative size": frame([b"\0" * 8], tensor_body(shape=(-2,))),
    "billions of elements by stride 0": frame([b"\0" * 4], tensor_body(shape=(2**20, 2**20), stride=(0, 0))),
    "a storage it does not have": frame([], tensor_body()),
    "an unknown dtype": frame([b"\0" * 8], tensor_body(dtype=200)),
    "a bool of byte 2": frame([b"\x02"], tensor_body(dtype=11, shape=(1,))),
    "requires_grad on ints": frame([b"\0" * 8], tensor_body(dtype=10, shape=(1,), grad=1)),
    "a grad flag of 7": frame([b"\0" * 8], tensor_body(shape=(1,), grad=7)),
    "a rank of 200": frame([b"\0" * 8], b"X" + struct.pack("<IBqB", 0, 0, 0, 200)),
    "a storage longer than the frame": wire.MAGIC + struct.pack("<IQ", 1, 2**40) + b"\0" * 8,
    "a billion storages": wire.MAGIC + struct.pack("<I", 10**9),
    "a list longer than the frame": frame([], b"l" + struct.pack("<I", 2**31)),
    "a string longer than the frame": frame([], b"s" + struct.pack("<Q", 2**60) + b"abc"),
    "a string that is not UTF-8": frame([], b"s" + struct.pack("<Q", 2) + b"\xff\xfe"),
    "too many values": frame([], b"l" + struct.pack("<I", plain.MAX_NODES + 5) + b"N" * (plain.MAX_NODES + 5)),
    "too deep": frame([], (b"l" + struct.pack("<I", 1)) * (plain.MAX_DEPTH + 2) + b"N"),
    "a key that cannot be hashed": frame([], b"d" + struct.pack("<I", 1) + b"l" + struct.pack("<I", 0) + b"N"),
    "a Size of strings": frame([], b"S" + struct.pack("<I", 1) + b"s" + struct.pack("<Q", 1) + b"a"),
    "a device torch does not know": frame([], b"V" + struct.pack("<I", 5) + b"nope!"),
    "an integer of a megabyte": frame([], b"I" + struct.pack("<I", 2**20) + b"\1" * 2**20),
    "an unknown tag": frame([], b"?"),
    "bytes after the value": frame([], b"NN"),
    "nothing after the magic": wire.MAGIC,
    "a torch.save frame": b"PK\x03\x04",
    "2**40 elements behind a size of 0": frame([b""], tensor_body(shape=(0, 2**40), stride=(2**40, 1))),  # sum(0)
    "an empty view's offset of 2**65 bytes": frame([b"\0" * 8], tensor_body(offset=2**63 - 1, shape=(0,))),
    "a Size of 2**70": frame([], b"S" + struct.pack("<I", 1) + b"I" + struct.pack("<I", 9)
                             + (2**70).to_bytes(9, "little")),
    "an integer str() refuses": frame([], b"I" + struct.pack("<I", 2048) + b"\1" * 2048),
    "keys of one hash": frame([], b"d" + struct.pack("<I", 65) + b"".join(
        b"I" + struct.pack("<I", 9) + (1 + k * (2**61 - 1)).to_bytes(9, "little") + b"N" for k in range(65))),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_frame_is_refused_as_not_plain(name):
    with pytest.raises(plain.NotPlain):
        wire.loads(HOSTILE[name], max_elements=10**6)


def test_bool_views_of_one_storage_scan_it_once(monkeypatch):
    """4000 bool views of one 16 MB storage took 9.8 s of the judge's CPU when each scanned it whole: the bytes
    the reader scans are counted, not timed."""
    scanned, scan = [], torch.Tensor.max

    def counted(self, *args, **kwargs):
        scanned.append(self.numel())
        return scan(self, *args, **kwargs)
    monkeypatch.setattr(torch.Tensor, "max", counted)
    data = frame([b"\0" * 2**24], b"l" + struct.pack("<I", 4000) + tensor_body(dtype=11, shape=(), stride=()) * 4000)
    assert len(wire.loads(data, max_elements=len(data))) == 4000
    assert sum(scanned) <= 2**24, f"{len(scanned)} scans of {sum(scanned)} bytes in all for one storage of 2**24"


def test_the_edges_of_a_view_are_exact():
    past = frame([bytes(range(8))], tensor_body(dtype=8, offset=3, shape=(2,)))  # int16: bytes 6..9 of 8
    with pytest.raises(plain.NotPlain):
        wire.loads(past)
    fits = wire.loads(frame([bytes(range(8))], tensor_body(dtype=8, offset=3, shape=(1,))))
    assert fits.tolist() == [int.from_bytes(bytes([6, 7]), "little", signed=True)]
    empty = wire.loads(frame([b""], tensor_body(offset=0, shape=(0, 5), stride=(5, 1))))
    assert empty.shape == (0, 5)
    for honest in (torch.ones(3, 0)[3:], torch.ones(2)[2:], torch.ones(4, dtype=torch.bool)[4:]):
        same(wire.loads(wire.dumps(honest)), torch_round_trip(honest))  # empty views past their storage


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_a_changed_frame_reads_as_plain_data_or_is_refused(data):
    value = data.draw(values)
    raw = bytearray(wire.dumps(value))
    for _ in range(data.draw(st.integers(1, 4))):
        how = data.draw(st.sampled_from(["flip", "cut", "add"]))
        at = data.draw(st.integers(len(wire.MAGIC), max(len(wire.MAGIC), len(raw) - 1)))
        if how == "flip" and at < len(raw):
            raw[at] = data.draw(st.integers(0, 255))
        elif how == "cut":
            del raw[at:]
        else:
            raw[at:at] = data.draw(st.binary(min_size=1, max_size=9))
    try:
        got = wire.loads(bytes(raw), max_elements=4 * len(raw) + 64)
    except plain.NotPlain:
        return
    plain.check(got, max_elements=4 * len(raw) + 64)


def test_a_reply_frame_the_judge_will_not_read_is_the_students_error(tmp_path):
    """Through the judge's side of the protocol: a wire frame with a view past its storage is refused
    as a result the grader will not read."""
    import os

    from course.judge.adapter import StudentCrashed
    from tests.test_worker_pipes import _judge_side
    body = frame([b"\0" * 8], b"d" + struct.pack("<I", 3) + b"s" + struct.pack("<Q", 3) + b"seq" + b"i"
                 + struct.pack("<q", 1) + b"s" + struct.pack("<Q", 2) + b"ok" + b"T" + b"s" + struct.pack("<Q", 5)
                 + b"value" + tensor_body(shape=(4,)))
    path = tmp_path / "frame.bin"
    path.write_bytes(struct.pack(">Q", len(body)) + body)
    st_ = _judge_side(str(path), 1 << 16)
    try:
        with pytest.raises(StudentCrashed, match="will not read: a tensor that reaches past"):
            st_._request({"op": "call", "probe": "p"}, 60, what="running check 'p'")
    finally:
        os.killpg(st_.proc.pid, 9)
        st_.proc.wait()
