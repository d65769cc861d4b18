"""CheckpointCallback remembers the files it wrote in a list instead of listing the folder: after a resume
(a new callback object) the older step files are never deleted."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"checkpoint_impl": _c["edited"]("checkpoint_impl", """        found = []
        for name in os.listdir(self.dirpath):
            m = re.fullmatch(r"step-(\\d+)\\.pt", name)
            if m:
                found.append((int(m.group(1)), name))
        for _, name in sorted(found)[:-self.keep_last] if self.keep_last > 0 else sorted(found):
            os.remove(os.path.join(self.dirpath, name))""", """        written = self.__dict__.setdefault("_written", [])
        written.append(f"step-{step:06d}.pt")
        while len(written) > self.keep_last:
            os.remove(os.path.join(self.dirpath, written.pop(0)))""")}
EXPECT = {"checkpoint": "fail"}
