"""Shared by the forge_* specs and the tests that forge replies (tests/test_reply_shapes.py,
tests/test_reply_lengths.py): a notebook cell that puts a relay between the judge and its worker on the protocol's
own descriptors. Not a spec itself (the name starts with '_').

The worker's seal (course/judge/seal/) fails every call once a cell rebinds one of the judge's objects (the old
forgers replaced ``Worker.call``), so a forger here rebinds nothing: it moves the worker's two descriptors onto pipes
of its own (``os.dup2``: the numbers stay) and two threads carry the frames, answering or rewriting the calls it
chooses. That is the path the seal cannot close (docs/security.md): what the judge reads from a worker is the
submission's to write, and these attacks test that the judge's decoding and checks hold against it."""

RELAY = '''
import os as _fo, sys as _fs, threading as _ft
_fw = _fs.modules.get("course.judge.worker")


def _forge_relay(answer=None, rewrite=None, retry=None):
    """answer(probe, kwargs) -> value: the call is answered here and never reaches the worker;
    rewrite(probe, kwargs, value) -> value: the worker's own reply to a call, changed on its way out;
    retry: an error type the worker may answer with (the relay's own threads seen running in a check's window):
    the call is sent to the worker again, up to 20 times, and the judge never sees that error."""
    f = _fs._getframe()
    while f is not None and not isinstance(f.f_locals.get("self"), _fw.Worker):
        f = f.f_back
    me = f.f_locals["self"]
    real_in, real_out = _fo.dup(me.fd_in), _fo.dup(me.fd_out)
    in_r, in_w = _fo.pipe()
    out_r, out_w = _fo.pipe()
    _fo.dup2(in_r, me.fd_in)
    _fo.dup2(out_w, me.fd_out)
    _fo.close(in_r)
    _fo.close(out_w)
    last = [None]

    def inbound():
        try:
            while True:
                msg = _fw.recv(real_in)
                if answer is not None and msg.get("op") == "call":
                    try:
                        reply = {"ok": True, "value": answer(msg.get("probe"), msg.get("kwargs", {}))}
                    except Exception as exc:
                        reply = {"ok": False, "error": _fw.describe(exc)}
                    _fw.send(real_out, {"seq": msg.get("seq"), **reply})
                    continue
                last[0] = msg
                _fw.send(in_w, msg)
        except (EOFError, OSError):
            pass
        finally:
            _fo.close(in_w)

    def outbound():
        tries = 0
        try:
            while True:
                reply = _fw.recv(out_r)
                msg = last[0]
                if retry is not None and msg is not None and not reply.get("ok") and tries < 20 \
                        and (reply.get("error") or {}).get("type") == retry:
                    tries += 1
                    _fw.send(in_w, msg)
                    continue
                tries = 0
                if rewrite is not None and msg is not None and msg.get("op") == "call" and reply.get("ok"):
                    reply = {**reply, "value": rewrite(msg.get("probe"), msg.get("kwargs", {}), reply.get("value"))}
                _fw.send(real_out, reply)
        except (EOFError, OSError):
            pass

    for target in (inbound, outbound):
        _ft.Thread(target=target, daemon=True).start()
'''


def rewriting(condition: str, replacement: str, retry: str | None = None) -> str:
    """A cell whose worker's replies for which ``condition`` holds (names: probe, kwargs, r) are replaced by
    ``replacement`` on their way to the judge (``retry``: see _forge_relay)."""
    return RELAY + f'''
def _forge_rewrite(probe, kwargs, r):
    if {condition}:
        r = {replacement}
    return r


if _fw is not None:
    _forge_relay(rewrite=_forge_rewrite, retry={retry!r})
'''


FORGERS = {
    "echo": '''
    vals = list(kwargs.values())
    return vals[0] if len(vals) == 1 else (vals or None)''',
    "constant": '''
    return True''',
    "raise": '''
    raise ValueError("forged")''',
    "protocol": '''
    if "dirs" in kwargs:
        return [{"numeric": 0.5, "analytic": 0.5, "error": ""} for _ in kwargs["dirs"]]
    if "inputs" in kwargs and "v" in kwargs:
        xs = kwargs["inputs"]
        return {"out": xs[0], "grads": list(xs)}
    vals = list(kwargs.values())
    return vals[0] if vals else None''',
    "bomb": '''
    loop = []
    loop.append(loop)
    x = [loop]
    for _ in range(40):
        x = [x, x]
    return x''',
}


def spec(mode: str) -> dict:
    """The spec fields for the forger ``mode``, earning nothing: every call answered by the relay, nothing run."""
    attack = (RELAY + "\ndef _forged(probe, kwargs):" + FORGERS[mode] + "\n\n\n"
              "if _fw is not None:\n    _forge_relay(answer=_forged)\n")

    def mutate(nb):
        import nbformat
        nb.cells.append(nbformat.v4.new_code_cell(attack))

    # JUDGE_ALL: judged against every assignment by tests/test_submissions.py. The bomb is stopped by the
    # judge's reply decoder, the same for every assignment: tests/test_hostile.py grades it on one.
    return {"EXPECT_TOTAL": 0, "BASE": "release", "JUDGE_ALL": mode != "bomb", "ATTACK": attack, "mutate": mutate}
