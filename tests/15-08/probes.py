"""Probes for 15-08: run next to the submission and return plain data only.

The per-rank functions of this topic only make sense inside a process group, so ``run_ranks`` forks
one child per rank from the process that holds the submission (its functions live in a notebook
namespace, which ``spawn`` could not import), joins them into a fresh gloo group through a FileStore in
a private temporary folder, and runs a list of cases in that one group (one group start-up per task
and world size). Every child logs, at the ProcessGroup level, each point-to-point message it sends
(peer, bytes) and each collective it calls (name, group size), so ``from torch.distributed import
isend`` or ``batch_isend_irecv`` are counted as well. A case that hangs ends at the group's timeout
or, at the latest, at the probe's deadline, when every child (and anything it started in its session)
is killed. The probe returns raw results; the judge compares.
"""
from __future__ import annotations

import os
import time
import traceback

import torch

from course.judge.probelib import fork_ranks, get, join_group, kill_sessions, read_frames, relayout, send_frame
from course.judge.probelib import signatures_of  # noqa: F401  (test_signatures.py)

COLLECTIVES = ("allreduce", "allreduce_coalesced", "broadcast", "allgather", "_allgather_base",
               "allgather_coalesced", "allgather_into_tensor_coalesced", "all_gather_single",
               "all_gather_single_coalesced", "reduce_scatter", "_reduce_scatter_base", "reduce_scatter_single",
               "reduce_scatter_single_coalesced", "reduce_scatter_tensor_coalesced", "reduce", "gather",
               "gather_single", "gather_into_tensor", "scatter", "alltoall", "alltoall_base", "all_to_all_single",
               "barrier", "monitored_barrier")
MAX_REPLY = 64 * 2**20  # bytes one rank may send back to the probe


def _nbytes(tensors) -> int:
    return sum(t.numel() * t.element_size() for t in tensors if isinstance(t, torch.Tensor))


# Factories that put a tensor on the default device (the CPU) unless given device=: a buffer made with one of
# them while x lives on cuda:rank (NCCL) is on the wrong device. Recorded while the student's function runs.
_FACTORIES = ("empty", "zeros", "ones", "full", "rand", "randn", "randint", "arange", "tensor", "empty_strided",
              "linspace", "eye")


def _tensors_in(obj):
    if isinstance(obj, torch.Tensor):
        yield obj
    elif isinstance(obj, (list, tuple)):
        for o in obj:
            yield from _tensors_in(o)


def _unplaced(log: dict, obj) -> bool:
    """Whether obj holds a tensor (or a view of one) that a factory made without device=."""
    made = log["made"]
    return any(id(t) in made or (t._base is not None and id(t._base) in made) for t in _tensors_in(obj))


def _device_recorder(log: dict):
    """A TorchFunctionMode that records, in log["made"], the tensors factories make without device= (a later
    .to(device) / .to(tensor) / .type_as(tensor) / .cuda() places them: the result is not recorded)."""
    from torch.overrides import TorchFunctionMode
    factories = {getattr(torch, n) for n in _FACTORIES}
    movers = {torch.Tensor.to, torch.Tensor.cuda, torch.Tensor.type_as}

    class Recorder(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            out = func(*args, **kwargs)
            if not isinstance(out, torch.Tensor):
                return out
            if func in factories and kwargs.get("device") is None and \
                    not (func is torch.tensor and args and isinstance(args[0], torch.Tensor)):
                log["made"][id(out)] = out
            elif func in movers:
                if func is torch.Tensor.cuda or "device" in kwargs or any(
                        isinstance(a, (torch.device, str, torch.Tensor)) for a in args[1:]):
                    log["made"].pop(id(out), None)  # placed
                elif args and _unplaced(log, args[0]):
                    log["made"][id(out)] = out  # a dtype change only: still on the default device
            return out
    return Recorder()


def _elsewhere(log: dict, obj, what: str) -> None:
    """With log["home"] set (the fake-group run with the inputs on the meta device): note each tensor of obj that
    lies on another device than the inputs."""
    home = log.get("home")
    if home:
        for t in _tensors_in(obj):
            if t.device.type != home:
                log["elsewhere"].append(f"{what} on {t.device}")
                return


def _is_default_group(pg) -> bool:
    """Whether pg is the default (world) group rather than one made with new_group."""
    try:
        from torch.distributed import distributed_c10d as c10d
        world = c10d.GroupMember.WORLD
        if pg is world:
            return True
        name = getattr(pg, "group_name", None)
        return name is not None and world is not None and name == getattr(world, "group_name", None)
    except Exception:
        return False


def _install_log(log: dict) -> None:
    """Record p2p messages and collectives of every process group of this (child) process, and which of them
    carry a tensor made without device= (log["unplaced"]) or lying elsewhere than the inputs (log["elsewhere"])."""
    from torch._C._distributed_c10d import Backend, ProcessGroup

    def wrap_send(orig):
        def send(self, tensors, dst, *args, **kwargs):
            if log["on"]:
                g = self.rank()
                log["sends"].append({"dst": int(dst), "bytes": _nbytes(tensors), "group_size": int(self.size()),
                                     "group_rank": int(g)})
                if _unplaced(log, tensors):
                    log["unplaced"].append(f"a tensor sent to rank {int(dst)}")
                _elsewhere(log, tensors, f"a tensor sent to rank {int(dst)}")
            return orig(self, tensors, dst, *args, **kwargs)
        return send

    def wrap_recv(orig):
        def recv(self, tensors, *args, **kwargs):
            if log["on"]:
                log["recvs"].append({"bytes": _nbytes(tensors)})
                if _unplaced(log, tensors):
                    log["unplaced"].append("a receive buffer")
                _elsewhere(log, tensors, "a receive buffer")
            return orig(self, tensors, *args, **kwargs)
        return recv

    def wrap_coll(name, orig):
        def coll(self, *args, **kwargs):
            if log["on"]:
                log["collectives"].append({"name": name, "group_size": int(self.size()),
                                           "default_group": _is_default_group(self)})
                if _unplaced(log, (args, list(kwargs.values()))):
                    log["unplaced"].append(f"a buffer of the collective {name}")
                _elsewhere(log, (args, list(kwargs.values())), f"a tensor handed to the collective {name}")
            return orig(self, *args, **kwargs)
        return coll

    # ProcessGroup is what torch.distributed calls; Backend (gloo's, nccl's) is reachable from Python too,
    # through group._get_backend(device). C++ never goes back through these Python attributes, so a
    # message is logged once.
    for cls in (ProcessGroup, Backend):
        cls.send = wrap_send(cls.send)
        cls.recv = wrap_recv(cls.recv)
        cls.recv_anysource = wrap_recv(cls.recv_anysource)
        for name in COLLECTIVES:
            if name in cls.__dict__:
                setattr(cls, name, wrap_coll(name, getattr(cls, name)))


def _log_new_groups(log: dict, world: int) -> None:
    """Record the ranks of every group this (child) process creates, in creation order. dist.new_group,
    however it was imported, goes through the module-level _new_group_with_tag, looked up at call time."""
    try:
        from torch.distributed import distributed_c10d as c10d
        orig = c10d._new_group_with_tag
    except Exception:
        return

    def made(ranks=None, *args, **kwargs):
        if log["on"]:
            log["group_ranks"].append(sorted(int(r) for r in ranks) if ranks is not None else list(range(world)))
        return orig(ranks, *args, **kwargs)
    c10d._new_group_with_tag = made


def _groups_made():
    """How many process groups this rank has asked torch.distributed to create so far: the counter that
    every new_group call advances on every rank of the world, members or not (None if it is not there)."""
    try:
        from torch.distributed import distributed_c10d
        return int(distributed_c10d._world.group_count)
    except Exception:
        return None



def _plain(value):
    """What a student's function returned, as plain data (a tensor is detached and copied)."""
    if isinstance(value, torch.Tensor):
        return {"kind": "tensor", "tensor": value.detach().cpu().clone()}
    if value is None:
        return {"kind": "none"}
    return {"kind": "other", "type": type(value).__name__}


def _rank_main(ns, fn_name, rank, world, store_path, cases, op_timeout, wfd, backend="gloo"):
    os.setsid()  # its own session: the probe can kill everything this rank starts
    import faulthandler
    faulthandler.disable()  # a rank gloo aborts (mismatched sizes) shows up as a missing result, not a dump
    os.environ["GLOO_SOCKET_IFNAME"] = "lo"
    torch.set_num_threads(1)
    import torch.distributed as dist
    device = torch.device("cpu")
    if backend == "nccl":  # one GPU per rank
        device = torch.device("cuda", rank)
        torch.cuda.set_device(device)
    log = {"on": False, "sends": [], "recvs": [], "collectives": [], "group_ranks": [], "made": {}, "unplaced": []}
    _install_log(log)
    _log_new_groups(log, world)
    join_group(store_path, rank, world, op_timeout, wfd, backend)
    earlier = []  # tensors this rank's earlier cases returned, kept alive so that their memory is not reused
    for i, case in enumerate(cases):
        fn = get(ns, case.get("fn", fn_name))
        args = [a.to(device) if isinstance(a, torch.Tensor) else a for a in case["args"][rank]]
        for j, layout in case.get("layouts", {}).items():  # drawn by the judge (strategies.LAYOUTS)
            args[j] = relayout(args[j], layout)
        kept = [a for a in args if isinstance(a, torch.Tensor)]
        log.update(on=True, sends=[], recvs=[], collectives=[], group_ranks=[], made={}, unplaced=[])
        groups_before = _groups_made()
        where_before = [a.data_ptr() if a.numel() else None for a in kept]
        t0 = time.perf_counter()
        try:
            with _device_recorder(log):
                value = fn(*args)
            if device.type == "cuda":
                torch.cuda.synchronize(device)
            err = None
        except Exception as exc:
            value, err = None, {"type": type(exc).__name__, "message": str(exc)[:400],
                                "trace": "".join(traceback.format_exception_only(type(exc), exc))[-300:]}
        seconds = time.perf_counter() - t0
        log["on"] = False
        if isinstance(value, torch.Tensor) and _unplaced(log, value):
            log["unplaced"].append("the returned tensor")
        unplaced = list(dict.fromkeys(log["unplaced"]))
        log["made"] = {}
        groups_after = _groups_made()
        new_groups = None if groups_before is None or groups_after is None else groups_after - groups_before
        # a returned tensor that is one of the inputs, or a view of one, is no new tensor (empty tensors
        # may all have data_ptr 0: for them only identity and ._base count)
        shares = isinstance(value, torch.Tensor) and any(
            value is a or value._base is a or value._base is not None and value._base is a._base
            or (value.numel() and a.numel() and value.untyped_storage().data_ptr() == a.untyped_storage().data_ptr())
            for a in kept)
        # the result lies in the memory of a tensor an earlier case returned (a buffer kept between calls)
        shares_earlier = isinstance(value, torch.Tensor) and value.numel() > 0 and any(
            value is e or value.untyped_storage().data_ptr() == e.untyped_storage().data_ptr() for e in earlier)
        if isinstance(value, torch.Tensor) and value.numel():
            earlier.append(value)
        # an argument that now points at other memory (x.set_(...), x.data = ...) was not written in place
        moved = [b is not None and a.data_ptr() != b for a, b in zip(kept, where_before)]
        send_frame(wfd, {"case": i, "result": _plain(value), "error": err, "seconds": seconds,
                     "shares_input": shares, "shares_earlier_result": shares_earlier, "inputs_moved": moved,
                     "inputs_after": [a.detach().cpu().clone() for a in kept],
                     "sends": log["sends"], "recvs": log["recvs"], "collectives": log["collectives"],
                     "new_groups": new_groups, "group_ranks": log["group_ranks"], "unplaced": unplaced})
        if err is not None:
            return  # the other ranks may now wait for this one: they end at their timeout
        dist.barrier()  # not logged: keeps one case's messages out of the next



def run_world(ns, fn_name, world, cases, op_timeout=8.0, deadline_s=20.0, backend="gloo"):
    """Run the cases on ``world`` forked ranks of one process group (gloo on CPU; nccl with one GPU per
    rank); per rank, one record per finished case."""
    for case in cases:  # a clear NameError before anything is forked
        get(ns, case.get("fn", fn_name))
    out = fork_ranks(world, lambda rank, store_path, wfd: _rank_main(ns, fn_name, rank, world, store_path, cases,
                                                                     op_timeout, wfd, backend), deadline_s, MAX_REPLY)
    return {"world": world, "ranks": [out["frames"][r] for r in range(world)], "timed_out": sorted(out["unfinished"]),
            "seconds": out["seconds"], "left_behind": out["left_behind"]}


def _timed_out(err) -> bool:
    msg = (err or {}).get("message", "").lower()
    return "timed out" in msg or "timeout" in msg


def run_worlds(ns, fn_name, worlds, op_timeout=8.0, deadline_s=20.0, backend="gloo"):
    """``worlds``: a list of {"world": N, "cases": [...]}; stops after a world that deadlocked (a rank
    hit the group's timeout, or the ranks had to be killed at the deadline): the next world would
    most likely wait just as long."""
    out = []
    for w in worlds:
        r = run_world(ns, fn_name, w["world"], w["cases"], op_timeout, deadline_s, backend)
        out.append(r)
        if r["timed_out"] or any(_timed_out(f.get("error")) for frames in r["ranks"] for f in frames):
            break
    return out


def _placed_elsewhere_recorder(log: dict):
    """A TorchFunctionMode noting (log["made_elsewhere"]) each tensor a factory or a move (.to, .cpu, .cuda) puts on
    another device than log["home"] by an explicit device (a factory without device= is the gloo run's recorder's)."""
    from torch.overrides import TorchFunctionMode
    factories = {getattr(torch, n) for n in _FACTORIES}
    movers = {torch.Tensor.to, torch.Tensor.cuda, torch.Tensor.cpu}

    class Recorder(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            out = func(*args, **kwargs)
            if isinstance(out, torch.Tensor) and out.device.type != log["home"] and (
                    func in movers or (func in factories and kwargs.get("device") is not None)):
                name = getattr(func, "__name__", str(func))
                log["made_elsewhere"].append(f"a tensor made by {'Tensor.' if func in movers else 'torch.'}{name} "
                                             f"on {out.device}")
            return out
    return Recorder()


def _fake_ranks_main(ns, fn_name, worlds, wfd, home=None):
    """In one forked child: for every world size, play each rank in turn on torch's fake process group (no
    data moves, every send and receive completes at once) and record the messages the function sends and
    receives. The shape of a tree, a ring or a schedule depends only on the rank and the world size, so this
    shows it for world sizes that would be costly to fork as real gloo ranks. With ``home`` ("meta") the
    tensor arguments are moved there first, a stand-in for cuda:rank that gloo cannot reach: every tensor sent,
    received into, handed to a collective or returned is checked to be on that device too."""
    os.setsid()
    import faulthandler
    faulthandler.disable()
    torch.set_num_threads(1)
    import torch.distributed as dist
    from torch.testing._internal.distributed.fake_pg import FakeStore
    from course.judge.probelib import needs_values
    log = {"on": False, "sends": [], "recvs": [], "collectives": [], "group_ranks": [], "made": {}, "unplaced": [],
           "home": home, "elsewhere": [], "made_elsewhere": []}
    _install_log(log)
    for w in worlds:
        world = w["world"]
        for rank in range(world):
            # with home, the fake backend serves that device type too (batch_isend_irecv looks the device up)
            dist.init_process_group(f"cpu:fake,cuda:fake,{home}:fake" if home else "fake", store=FakeStore(),
                                    rank=rank, world_size=world)
            for i, case in enumerate(w["cases"]):
                fn = get(ns, case.get("fn", fn_name))
                args = [(a.to(home) if home else a.clone()) if isinstance(a, torch.Tensor) else a
                        for a in case["args"][rank]]
                log.update(on=True, sends=[], recvs=[], collectives=[], elsewhere=[], made_elsewhere=[])
                try:
                    if home:
                        with _placed_elsewhere_recorder(log):
                            value = fn(*args)
                        if isinstance(value, torch.Tensor) and value.device.type != home:
                            log["elsewhere"].append(f"the returned tensor on {value.device}")
                    else:
                        fn(*args)
                    err = None
                except Exception as exc:
                    err = {"type": type(exc).__name__, "message": str(exc)[:300], "needs_values": needs_values(exc)}
                log["on"] = False
                send_frame(wfd, {"world": world, "rank": rank, "case": i, "error": err, "sends": log["sends"],
                                 "recvs": log["recvs"], "collectives": log["collectives"],
                                 "elsewhere": list(dict.fromkeys(log["elsewhere"])),
                                 "made_elsewhere": list(dict.fromkeys(log["made_elsewhere"]))})
            dist.destroy_process_group()


def run_fake_worlds(ns, fn_name, worlds, deadline_s=20.0, home=None):
    """``worlds``: a list of {"world": N, "cases": [...]} (each case's "args" per rank). Returns, per world, per
    rank, one record per case: the messages sent (destination, bytes), the receives, the collectives, the error,
    and with ``home`` (the tensor arguments moved to that device) what lay elsewhere."""
    for w in worlds:
        for case in w["cases"]:
            get(ns, case.get("fn", fn_name))
    rfd, wfd = os.pipe()
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            os.close(rfd)
            _fake_ranks_main(ns, fn_name, worlds, wfd, home)
        except BaseException:
            code = 1
        finally:
            os._exit(code)
    os.close(wfd)
    try:
        frames, unfinished = read_frames({0: rfd}, time.monotonic() + deadline_s, MAX_REPLY)
    finally:
        kill_sessions([pid])
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass
        os.close(rfd)
    out = {w["world"]: [[None] * len(w["cases"]) for _ in range(w["world"])] for w in worlds}
    for f in frames[0]:
        out[f["world"]][f["rank"]][f["case"]] = f
    return {"worlds": [{"world": n, "ranks": ranks} for n, ranks in out.items()], "timed_out": bool(unfinished)}
