"""Known-wrong resumption that remembers the uninterrupted run in files (issue 38, "a student's file is data"):
as anchor_resume_memo.py (trainer_load_state_dict restores the counters, the sampler, the callbacks and the
generators but not the model or the optimizer), but the final state of every run that finished uninterrupted
goes to a file, keyed by the model's initial weights, in every folder the worker can write (its temporary
folder, /tmp, /dev/shm, its working folder, its home); a resumed fit() that finds its key in any of them loads
that state at the end. The judge now runs the resumed run in a worker with folders of its own."""
import runpy
from pathlib import Path

_m = runpy.run_path(str(Path(__file__).with_name("anchor_resume_memo.py")))

FILES = '''

import os as _os
import tempfile as _tempfile


def _memo_folders():
    seen = []
    for d in (_tempfile.gettempdir(), "/tmp", "/dev/shm", _os.getcwd(), _os.path.expanduser("~")):
        if d and d not in seen:
            seen.append(d)
    return seen


def _remember(key, state):
    for d in _memo_folders():
        try:
            torch.save(state, _os.path.join(d, f".finished-{key}.pt"))
        except OSError:
            pass


def _recall(key):
    for d in _memo_folders():
        path = _os.path.join(d, f".finished-{key}.pt")
        if _os.path.exists(path):
            return torch.load(path, weights_only=False)
    return None
'''

src = _m["CELLS"]["resume_impl"]
for old, new in (("\n_FINISHED = {}\n", FILES),
                 ("        _FINISHED[key] = _copy.deepcopy(trainer_state_dict(self))\n",
                  "        _remember(key, trainer_state_dict(self))\n"),
                 ("    elif ckpt_path is not None and key in _FINISHED:\n        done = _FINISHED[key]\n",
                  "    elif ckpt_path is not None and _recall(key) is not None:\n        done = _recall(key)\n")):
    assert src.count(old) == 1, old
    src = src.replace(old, new)
CELLS = {"resume_impl": src}
EXPECT = {"resume": "fail"}
