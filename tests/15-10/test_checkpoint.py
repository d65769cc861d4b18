"""Hidden checks for atomic_save and CheckpointCallback (15-10, judge side)."""
import re

import pytest
import torch

from course.judge.expect import expect, expect_equal, fail

pytestmark = pytest.mark.task("checkpoint")


def atomic_run(student, gen):
    old, new = torch.randn(5, generator=gen), torch.randn(5, generator=gen)
    return old, new, student.call("atomic", old=old, new=new)


def test_atomic_save_writes(student, gen):
    """atomic_save writes a loadable file and leaves no temporary file after a successful save"""
    old, new, r = atomic_run(student, gen)
    expect(r["listing"] == ["last.pt"], f"atomic_save(obj, 'dir/last.pt') into an empty folder should leave "
                                        f"exactly ['last.pt'] there, found {r['listing']}")
    expect_equal(r["loaded"], old, "torch.load of a file written by atomic_save")
    expect_equal(r["final"], new, "a later successful atomic_save over the same path, read back")


def test_atomic_save_survives_a_crash(student, gen):
    """a save that fails half-way raises and leaves the previous checkpoint intact"""
    old, new, r = atomic_run(student, gen)
    expect(r["crash"]["raised"], "atomic_save of an object that cannot be pickled should raise, it returned normally")
    if r["after"] is None:
        fail("after atomic_save crashed while writing over 'last.pt' (pickling failed half-way), the previous "
             f"'last.pt' could not be loaded any more ({r['after_err']}): write to a temporary file in the same "
             "folder, then os.replace it over the target")
    expect_equal(r["after"], old, "after a crashed atomic_save, the previous 'last.pt' contents")


@pytest.mark.task("checkpoint", weight=0.1)  # its right answer is a constant (only last.pt): worth little
def test_atomic_save_cleans_up_after_a_crash(student, gen):
    """a save that fails (half-way through writing, or at the rename) deletes its temporary file"""
    old, new, r = atomic_run(student, gen)
    expect(r["listing_crash"] == ["last.pt"],
           f"after atomic_save over 'dir/last.pt' raised (pickling failed half-way), the folder should hold only "
           f"['last.pt'], found {r['listing_crash']}: delete the temporary file before re-raising")
    expect(r["listing_rename"] == ["last.pt", "taken"],
           f"atomic_save(obj, 'dir/taken') where 'dir/taken' is a folder (the rename onto it fails"
           f"{', raising ' + r['rename_crash']['type'] if r['rename_crash']['raised'] else ''}): the folder 'dir' "
           f"should hold only ['last.pt', 'taken'] afterwards, found {r['listing_rename']}: if anything fails, "
           f"os.replace included, delete the temporary file and re-raise")


@pytest.mark.task("checkpoint", weight=0.5)
def test_atomic_save_leaves_no_file_open(student, gen):
    """atomic_save closes every file it opens: after a save, two saves that fail and one more that succeeds, the
    process holds no more open files than before"""
    old, new, r = atomic_run(student, gen)
    expect(r["files_after_save"] <= 0, f"atomic_save(obj, 'dir/last.pt') left {r['files_after_save']} more file(s) "
                                       f"open than before the call: close the temporary file (a descriptor from "
                                       f"tempfile.mkstemp too) once it is written and fsynced")
    expect(r["files_after_all"] <= 0, f"after atomic_save succeeded twice and failed twice (pickling half-way, the "
                                      f"rename onto a folder), {r['files_after_all']} more file(s) were open than "
                                      f"before: close the temporary file whether the save succeeds or fails")


def test_atomic_save_temp_file_in_target_folder(student, gen):
    """atomic_save writes its temporary file in the target's folder (it works while the system's temporary
    folder is unusable)"""
    obj = torch.randn(5, generator=gen)
    r = student.call("atomic_system_tmp_unusable", obj=obj)
    err = r["error"]
    expect(not err["raised"], f"atomic_save(obj, 'dir/last.pt') raised {err['type']}: {err['message'][:200]} while "
                              f"the system's temporary folder (tempfile.gettempdir()) did not exist: write the "
                              f"temporary file in the folder of the target, so that the rename never crosses file "
                              f"systems")
    expect(r["listing"] == ["last.pt"], f"atomic_save(obj, 'dir/last.pt') into an empty folder should leave exactly "
                                        f"['last.pt'] there, found {r['listing']}")
    expect_equal(r["loaded"], obj, "torch.load of a file written by atomic_save while the system's temporary folder "
                                   "did not exist")


def expected_folder(events, every, keep, mode):
    """(kept step numbers, step in last.pt, step in best.pt, event of each saved step, event of last, of best)."""
    saved, best_val, best_step, best_event, step = {}, None, None, None, 0
    for i, (kind, v) in enumerate(events):
        if kind == "step":
            step = v
            if step > 0 and step % every == 0 and step not in saved:
                saved[step] = i
        else:
            if best_val is None or (v < best_val if mode == "min" else v > best_val):
                best_val, best_step, best_event = v, step, i
    last = max(saved) if saved else None
    return (sorted(saved)[-keep:], last, best_step, saved, saved.get(last), best_event)


def make_events(gen, vals):
    """on_batch_end twice at global_step 0 (accumulation before the first step), then steps 1..S (S from 10 to
    15), each seen by one or two batches (accumulation; step S by two), and a validation after each of
    len(vals) steps, the last after step S: drawn per student. Returns the events and a description."""
    last = int(torch.randint(10, 16, (1,), generator=gen))
    twice = (torch.rand(last, generator=gen) < 0.5).tolist()
    twice[-1] = True  # the last step always: a second save of a step then shows in last.pt
    at = sorted(torch.randperm(last - 2, generator=gen)[:len(vals) - 1].add(2).tolist()) + [last]
    events = [["step", 0], ["step", 0]]
    for step in range(1, last + 1):
        events += [["step", step]] * (2 if twice[step - 1] else 1)
        if step in at:
            events.append(["val", vals[at.index(step)]])
    text = (f"global_step 0, 0, 1, ..., {last} (on_batch_end; steps {[s + 1 for s in range(last) if twice[s]]} seen "
            f"by two batches) with validations {vals} after steps {at}")
    return events, text


def folder_run(student, gen, mode, vals, every=None, keep=None, restart_at=None, events=None, restart_from=None):
    every = every if every is not None else int(torch.randint(1, 4, (1,), generator=gen))
    keep = keep if keep is not None else int(torch.randint(1, 4, (1,), generator=gen))
    events, text = events or make_events(gen, vals)
    r = student.call("checkpoint_folder", events=events, every=every, keep=keep, mode=mode, restart_at=restart_at,
                     restart_from=restart_from)
    what = f"CheckpointCallback(every_n_steps={every}, keep_last={keep}, monitor='val_loss', mode='{mode}') over {text}"
    if restart_at is not None:
        kind, v = events[restart_at]
        where = f"step {v}" if kind == "step" else f"the validation of {v}"
        what += (f", the callback replaced by a new one loaded from "
                 + ("its state_dict()" if restart_from is None else
                    f"the callback state inside {restart_from} (trainer.state_dict() as it was when written)")
                 + f" (as in a resumed run) before {where}")
    return r, events, every, keep, what


def step_files(r, what):
    got = []
    for name in r["names"]:
        m = re.fullmatch(r"step-(\d+)\.pt", name)
        if m:
            got.append(int(m.group(1)))
        elif name not in ("last.pt", "best.pt"):
            fail(f"{what}: unexpected file '{name}' left in the folder (files: {r['names']})")
    return sorted(got)


@pytest.mark.parametrize("mode", ["min", "max"])
def test_keep_last_step_files(student, gen, mode):
    """step-{global_step:06d}.pt at every positive multiple of every_n_steps; only the keep_last newest remain"""
    vals = [round(float(torch.rand(1, generator=gen)), 4) for _ in range(4)]
    r, events, every, keep, what = folder_run(student, gen, mode, vals)
    want_steps, want_last, *_ = expected_folder(events, every, keep, mode)
    expect(step_files(r, what) == want_steps, f"{what}: expected step files for steps {want_steps}, "
                                              f"found {step_files(r, what)} (files: {r['names']})")
    for name, s in r["step_files"].items():
        expect(s == int(name[5:-3]), f"{what}: {name} holds a checkpoint of global_step {s}")
    expect(r["last"] == want_last, f"{what}: last.pt should hold global_step {want_last}, got {r['last']}")


def test_saved_once_per_step(student, gen):
    """a step seen by several batches (accumulation) is saved at its FIRST on_batch_end only"""
    vals = [0.5, 0.25, 0.75, 0.125]
    r, events, every, keep, what = folder_run(student, gen, "min", vals, every=1, keep=3)
    kept, _, _, saved, last_event, _ = expected_folder(events, every, keep, "min")
    expect(isinstance(r["step_events"], dict) and len(r["step_events"]) == len(kept),
           f"{what}: the grader found {len(r['step_events']) if isinstance(r['step_events'], dict) else 0} step "
           f"files, expected {len(kept)} (steps {kept})")
    for name, ev in r["step_events"].items():
        s = int(name[5:-3])
        expect(ev == saved.get(s), f"{what}: {name} was written at on_batch_end #{ev}, expected #{saved.get(s)} "
                                   f"(the first batch that ended at step {s}; later batches of the same step must "
                                   f"not save again)")
    expect(r["last_event"] == last_event, f"{what}: last.pt was written at on_batch_end #{r['last_event']}, "
                                          f"expected #{last_event} (the first batch that ended at the last step)")


@pytest.mark.parametrize("mode", ["min", "max"])
def test_best_checkpoint(student, gen, mode):
    """best.pt holds the checkpoint of the best monitored value; only a STRICTLY better value rewrites it (a tie is
    not, nor is a nan)"""
    # the best value comes second, then a nan (a diverged validation), a tie with the best, then a worse one
    nan = float("nan")
    vals = [0.5, 0.25, nan, 0.25, 0.75] if mode == "min" else [0.5, 0.75, nan, 0.75, 0.25]
    r, events, every, keep, what = folder_run(student, gen, mode, vals)
    _, _, want_best, *_ = expected_folder(events, every, keep, mode)
    expect(r["best"] == want_best, f"{what}: best.pt should hold the checkpoint of step {want_best} "
                                   f"(the best validation; the nan and the tie after it are not strictly better), got "
                                   f"{r['best']}")


def test_best_checkpoint_random(student, gen):
    """best.pt follows the best monitored value on random validation values"""
    mode = ["min", "max"][int(torch.randint(0, 2, (1,), generator=gen))]
    vals = [round(float(torch.rand(1, generator=gen)), 4) for _ in range(4)]
    r, events, every, keep, what = folder_run(student, gen, mode, vals)
    _, _, want_best, *_ = expected_folder(events, every, keep, mode)
    expect(r["best"] == want_best, f"{what}: best.pt should hold the checkpoint of step {want_best} "
                                   f"(the best validation), got {r['best']}")


@pytest.mark.parametrize("mode", ["min", "max"])
def test_best_checkpoint_first_value(student, gen, mode):
    """the first monitored value is the best so far, whatever its sign or size: it writes best.pt (mode 'max': zero,
    negative or -inf; mode 'min': huge or +inf)"""
    k = int(torch.randint(0, 17, (1,), generator=gen))
    for first in ((-k / 8, float("-inf")) if mode == "max" else (2.0 ** (20 + 4 * k), float("inf"))):
        vals = [first, first - 0.5, first - 0.25, first] if mode == "max" else [first, first * 2, first * 4, first]
        r, events, every, keep, what = folder_run(student, gen, mode, vals)
        _, _, want_best, *_ = expected_folder(events, every, keep, mode)
        expect(r["best"] == want_best, f"{what}: best.pt should hold the checkpoint of step {want_best} (the first "
                                       f"validation, {first}, is the best so far; none after it is better), got "
                                       f"{r['best']}")


@pytest.mark.parametrize("mode", ["min", "max"])
def test_best_checkpoint_after_a_zero_value(student, gen, mode):
    """a best value of exactly 0.0 (a perfect loss, a zero score) is a best like any other: a worse value after it,
    or a tie with -0.0, does not rewrite best.pt"""
    k = int(torch.randint(1, 9, (1,), generator=gen)) / 8  # drawn per student, exact
    vals = [k, 0.0, -0.0, k / 2] if mode == "min" else [-k, 0.0, -0.0, -k / 2]
    r, events, every, keep, what = folder_run(student, gen, mode, vals)
    _, _, want_best, *_ = expected_folder(events, every, keep, mode)
    expect(r["best"] == want_best, f"{what}: best.pt should hold the checkpoint of step {want_best} (the validation "
                                   f"of 0.0; -0.0 ties with it and {vals[-1]} is worse), got {r['best']}")


def test_keep_last_after_resume(student, gen):
    """old step files are found by listing the folder: a new callback object (after a resume) prunes them too"""
    vals = [0.5, 0.25, 0.75, 0.125]
    events, text = make_events(gen, vals)
    at = int(torch.randint(4, events[-2][1] - 1, (1,), generator=gen))  # a step in the middle of the run
    restart = next(i for i, e in enumerate(events) if e == ["step", at])
    r, events, every, keep, what = folder_run(student, gen, "min", vals, every=1, keep=2, restart_at=restart,
                                              events=(events, text))
    want_steps, want_last, *_ = expected_folder(events, every, keep, "min")
    expect(step_files(r, what) == want_steps, f"{what}: expected step files for steps {want_steps}, "
                                              f"found {step_files(r, what)} (files: {r['names']})")
    expect(r["last"] == want_last, f"{what}: last.pt should hold global_step {want_last}, got {r['last']}")


def expected_timeline(events, every, keep):
    """The folder's step files (then "last.pt" when present) after each event."""
    saved, out = [], []
    for kind, v in events:
        if kind == "step" and v > 0 and v % every == 0 and v not in saved:
            saved.append(v)
        out.append((sorted(saved)[-keep:] if keep > 0 else []) + (["last.pt"] if saved else []))
    return out


@pytest.mark.parametrize("every,keep", [(1, 2), (1, 0), (3, 1)], ids=["every1_keep2", "keep0", "every3_keep1"])
def test_folder_after_every_batch(student, gen, every, keep):
    """the folder after each on_batch_end: no step-0 file, a file at every positive multiple, keep_last=0 keeps none
    (and a step is still saved only once)"""
    vals = [round(float(torch.rand(1, generator=gen)), 4) for _ in range(4)]
    r, events, every, keep, what = folder_run(student, gen, "min", vals, every=every, keep=keep)
    want = expected_timeline(events, every, keep)
    got = [[x if isinstance(x, str) else int(x) for x in row] for row in r["timeline"]]
    *_, last_event, _ = expected_folder(events, every, keep, "min")
    expect(r["last_event"] == last_event,
           f"{what}: last.pt was last written at on_batch_end #{r['last_event']}, expected #{last_event} (the first "
           f"batch that ended at the last saved step): a step is saved once, at its first on_batch_end, even when "
           f"keep_last removed its step file (\"has not been saved yet\" is the callback's own record, not the folder)")
    if got != want:
        i = next(j for j, (a, b) in enumerate(zip(got, want)) if a != b) if len(got) == len(want) else 0
        kind, v = events[i]
        at = f"on_batch_end at global_step {v}" if kind == "step" else f"on_validation_end({v})"
        fail(f"{what.replace('keep_last=0', 'keep_last=0 (no step file kept)')}: after event #{i} ({at}) the folder "
             f"should hold step files {[x for x in want[i] if x != 'last.pt']}"
             f"{' and last.pt' if 'last.pt' in want[i] else ' and no last.pt'}, it holds "
             f"{[x for x in got[i] if x != 'last.pt']}{' and last.pt' if 'last.pt' in got[i] else ''} "
             f"(step 0 is never saved; a step is saved at the first on_batch_end that sees it)")


@pytest.mark.parametrize("monitor", [None, "val_acc"], ids=["no_monitor", "monitor_not_in_metrics"])
def test_no_best_without_monitor(student, gen, monitor):
    """without a monitor, or with one the metrics do not contain, on_validation_end does nothing"""
    vals = [0.5, 0.25, 0.75, 0.125]
    events, _ = make_events(gen, vals)
    every, keep = (int(v) for v in torch.randint(1, 4, (2,), generator=gen))
    r = student.call("checkpoint_folder", events=events, every=every, keep=keep, mode="min", monitor=monitor)
    want_steps, want_last, *_ = expected_folder(events, every, keep, "min")
    what = (f"CheckpointCallback(every_n_steps={every}, keep_last={keep}, monitor={monitor!r}) with validations "
            f"reporting only {{'val_loss': ...}}")
    expect(not (isinstance(r, dict) and "error" in r and "names" not in r),
           f"{what}: raised {r.get('error') if isinstance(r, dict) else r}")
    expect("best.pt" not in r["names"], f"{what}: no best.pt should be written, found files {r['names']}")
    expect(step_files(r, what) == want_steps and r["last"] == want_last,
           f"{what}: step files and last.pt should still be written as usual (steps {want_steps}, last {want_last}), "
           f"got {step_files(r, what)} and last {r['last']}")


def test_atomic_save_fsyncs_before_rename(student, gen):
    """the temporary file is flushed and os.fsync'ed before os.replace puts it at the path (recorded in the worker)"""
    old, new = torch.randn(5, generator=gen), torch.randn(5, generator=gen)
    r = student.call("atomic_durability", old=old, new=new)
    path = r["path"]
    for label, s in zip(("into an empty folder", "over an existing 'last.pt'"), r["saves"]):
        what = f"atomic_save(obj, 'dir/last.pt') {label}"
        err = s["error"]
        expect(not err["raised"], f"{what} raised {err['type']}: {err['message'][:200]}")
        ev = s["events"]
        moves = [i for i, e in enumerate(ev) if e[0] in ("replace", "rename") and e[2] == path]
        expect(moves, f"{what}: no os.replace (or os.rename) put a file at that path (calls recorded: "
                      f"{[e[0] for e in ev]}); write a temporary file, then os.replace(tmp, path)")
        i = moves[-1]
        syncs = [e for e in ev[:i] if e[0] == "sync" and e[1] == s["ino"]]
        expect(syncs, f"{what}: the temporary file that os.replace moved to 'last.pt' was never passed to os.fsync "
                      f"before the rename (recorded: {[e[0] for e in ev]}); flush it and os.fsync(f.fileno()) so the "
                      f"bytes are on disk before the new name points at them")
        expect(any(e[2] == s["size"] for e in syncs),
               f"{what}: when os.fsync ran, the temporary file held {syncs[-1][2]} bytes, but the finished file has "
               f"{s['size']}: the rest was still in Python's buffer; call f.flush() before os.fsync")


def test_checkpoint_files_written_atomically(student, gen):
    """every file CheckpointCallback writes (step files, last.pt, best.pt) arrives by an atomic rename"""
    vals = [0.5 + float(torch.randint(0, 8, (1,), generator=gen)) / 8 for _ in range(3)]
    events = [["step", 1], ["step", 2], ["val", vals[0]], ["step", 3], ["val", vals[0] - 0.25], ["step", 4],
              ["val", vals[1]], ["step", 5]]
    r = student.call("checkpoint_writes", events=events, every=1, keep=2)
    for row in r:
        kind, v = row["event"]
        what = (f"CheckpointCallback(dir, every_n_steps=1, keep_last=2, monitor='val_loss'): "
                + (f"on_batch_end at global_step {v}" if kind == "step" else f"on_validation_end(val_loss={v})"))
        direct = [n for n in row["written"] if n not in row["moved"]]
        expect(not direct, f"{what} wrote {direct} in place (no os.replace/os.rename put them there; renames seen: "
                           f"{row['moved']}): write every checkpoint file with atomic_save")


def test_keep_last_past_a_million_steps(student, gen):
    """the keep_last newest step files are the highest step NUMBERS: past step 999999 the names grow a digit, and
    'step-1000000.pt' sorts before 'step-999999.pt' as a string"""
    keep = int(torch.randint(1, 3, (1,), generator=gen))
    events = [["step", s] for s in (999_998, 999_999, 1_000_000, 1_000_001)]
    r, events, every, keep, what = folder_run(student, gen, "min", [], every=1, keep=keep,
                                              events=(events, "on_batch_end at steps 999998 to 1000001"))
    want_steps, want_last, *_ = expected_folder(events, every, keep, "min")
    expect(step_files(r, what) == want_steps, f"{what}: expected step files for steps {want_steps}, found "
                                              f"{step_files(r, what)} (delete the oldest by step number, not by name)")
    expect(r["last"] == want_last, f"{what}: last.pt should hold global_step {want_last}, got {r['last']}")


def test_failed_write_deletes_no_old_checkpoint(student, gen):
    """the new step file and last.pt are written BEFORE old ones are deleted: a save that fails (here the checkpoint
    cannot be pickled, or only its second file fails) deletes none of the keep_last previous step files"""
    keep = int(torch.randint(1, 4, (1,), generator=gen))
    last = keep + int(torch.randint(1, 4, (1,), generator=gen))
    events = [["step", s] for s in range(1, last + 2)]
    boom = len(events) - 1
    what = (f"CheckpointCallback(every_n_steps=1, keep_last={keep}) over on_batch_end at steps 1 to {last + 1}, "
            f"the checkpoint of step {last + 1} failing to pickle (a crash while it is written)")
    r2 = student.call("checkpoint_folder", events=events, every=1, keep=keep, mode="min", boom_at=boom)
    timeline = r2.get("timeline") or []
    expect(len(timeline) == len(events), f"{what}: the probe recorded {len(timeline)} of {len(events)} events")
    want = expected_timeline(events[:-1], 1, keep)[-1]
    got = [x if isinstance(x, str) else int(x) for x in timeline[-1]]
    expect(got == want, f"{what}: after the failed save the folder should still hold step files "
                        f"{[x for x in want if x != 'last.pt']} and last.pt (write the new files first, then delete "
                        f"the oldest), it holds {[x for x in got if x != 'last.pt']}"
                        f"{' and last.pt' if 'last.pt' in got else ' and no last.pt'}")
    expect(r2["last"] == last, f"{what}: after the failed save last.pt should still hold step {last}, got {r2['last']}")
    step_files(r2, what)
    # the same, but only the SECOND of the step's two files fails (the first one was written): still nothing deleted
    r3 = student.call("checkpoint_folder", events=events, every=1, keep=keep, mode="min", boom_at=boom,
                      boom_second=True)
    what3 = (f"CheckpointCallback(every_n_steps=1, keep_last={keep}) over on_batch_end at steps 1 to {last + 1}, the "
             f"second file written at step {last + 1} failing (step-{last + 1:06d}.pt and last.pt: the first pickles, "
             f"the second crashes)")
    timeline = r3.get("timeline") or []
    expect(len(timeline) == len(events), f"{what3}: the probe recorded {len(timeline)} of {len(events)} events")
    gone = [x for x in want if x != "last.pt" and x not in timeline[-1]]
    expect(not gone, f"{what3}: step files {gone} were deleted although the save of step {last + 1} failed (\"write "
                     f"step-{{global_step:06d}}.pt and last.pt, then delete the oldest\": delete only after both "
                     f"writes); the folder holds {timeline[-1]}")


def test_atomic_save_takes_a_path_object(student, gen):
    """atomic_save(obj, path) takes what torch.save takes for path: a str or any os.PathLike (a pathlib.Path)"""
    obj = torch.randn(5, generator=gen)
    r = student.call("atomic_errors", obj=obj)
    what = "atomic_save(obj, pathlib.Path('dir/last.pt')) (the text: a str or any os.PathLike, as for torch.save)"
    err = r["path_error"]
    expect(not err["raised"], f"{what} raised {err['type']}: {err['message'][:200]}")
    expect(r["path_listing"] == ["last.pt"], f"{what}: the folder should hold exactly ['last.pt'] afterwards, found "
                                             f"{r['path_listing']}")
    expect(r["path_loaded"] is not None and torch.equal(r["path_loaded"], obj),
           f"{what}: torch.load of the file should give back the saved tensor {obj[:3].tolist()}..., got "
           f"{None if r['path_loaded'] is None else r['path_loaded'][:3].tolist()}")


@pytest.mark.parametrize("kind", ["RuntimeError", "KeyboardInterrupt"])
def test_atomic_save_reraises_the_same_exception(student, gen, kind):
    """a save interrupted by any exception (a KeyboardInterrupt, which is no Exception, included) deletes its
    temporary file and re-raises that same exception object"""
    obj = torch.randn(5, generator=gen)
    r = student.call("atomic_errors", obj=obj)[kind]
    what = (f"atomic_save(obj, 'dir/last.pt') over a good 'last.pt', interrupted half-way through pickling by a "
            f"{kind}{'' if kind == 'RuntimeError' else ' (a BaseException, as Ctrl-C raises)'}")
    expect(r["raised"] and r["same"],
           f"{what}: the text says 'if anything fails, delete the temporary file and re-raise' the same exception; "
           + (f"got {r['type']}: {r['message'][:150]} instead of that {kind} object" if r["raised"]
              else "atomic_save returned normally"))
    expect(r["listing"] == ["last.pt"], f"{what}: the folder should hold only ['last.pt'] afterwards (the temporary "
                                        f"file deleted), found {r['listing']}")
    expect(r["intact"], f"{what}: the previous 'last.pt' should still load with its old contents")


def test_step_saved_once_across_a_resume(student, gen):
    """a checkpoint records its own step as saved: a run resumed from last.pt whose next batch still ends at that
    step (the rest of an accumulation group) does not write it again"""
    vals = [0.5, 0.25, 0.75, 0.125]
    events, text = make_events(gen, vals)
    last = events[-2][1]  # the last step, always seen by two batches (a validation follows it)
    restart = max(i for i, e in enumerate(events) if e == ["step", last])
    r, events, every, keep, what = folder_run(student, gen, "min", vals, every=1, keep=2, restart_at=restart,
                                              events=(events, text), restart_from="last.pt")
    kept, _, _, saved, last_event, _ = expected_folder(events, every, keep, "min")
    expect(r["last_event"] == last_event,
           f"{what}: last.pt was last written at on_batch_end #{r['last_event']}, expected #{last_event} (the first "
           f"batch that ended at step {last}): the checkpoint written there must already record step {last} as "
           f"saved, so the resumed callback does not save it again (\"has not been saved yet\")")
    for name, ev in r["step_events"].items():
        s = int(name[5:-3])
        expect(ev == saved.get(s), f"{what}: {name} was written at on_batch_end #{ev}, expected #{saved.get(s)}")


@pytest.mark.parametrize("mode", ["min", "max"])
def test_best_checkpoint_across_a_resume(student, gen, mode):
    """best.pt records its own value as the best: a run resumed from best.pt does not take a worse value for a
    new best"""
    sign = 1.0 if mode == "min" else -1.0
    first = round(float(torch.rand(1, generator=gen)) + 1.0, 4) * sign  # the first best
    second = round(first - sign * float(torch.rand(1, generator=gen) * 0.5 + 0.25), 4)  # a better one
    between = round((first + second) / 2, 4)  # worse than second, better than first
    events = [["step", 1], ["val", first], ["step", 2], ["val", second], ["step", 3], ["val", between]]
    text = f"global_step 1, 2, 3 (on_batch_end) with validations {first}, {second}, {between} after them"
    r, events, every, keep, what = folder_run(student, gen, mode, [], every=1, keep=1, restart_at=4,
                                              events=(events, text), restart_from="best.pt")
    expect(r["best_event"] == 3 and r["best"] == 2,
           f"{what}: best.pt should still hold the checkpoint of the validation of {second} (global_step 2); it holds "
           f"global_step {r['best']} (written at event #{r['best_event']}). The state inside best.pt must already say "
           f"{second} is the best, so {between} (mode '{mode}') is no improvement after resuming from it")
