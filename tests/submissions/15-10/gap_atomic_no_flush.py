"""Gap-hunting round (issue 39, 2026-12-01): atomic_save serialises to memory, writes the bytes and calls os.fsync without flushing the Python file buffer first, so the tail of the file is not yet in the kernel when it is synced. Breaks: "flush it and os.fsync it"."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"checkpoint_impl": _c["edited"]("checkpoint_impl", """        with os.fdopen(fd, "wb") as f:
            torch.save(obj, f)
            f.flush()
            os.fsync(f.fileno())
""", """        import io
        buf = io.BytesIO()
        torch.save(obj, buf)
        with os.fdopen(fd, "wb") as f:
            f.write(buf.getvalue())
            os.fsync(f.fileno())
""")}
EXPECT = {"checkpoint": "fail"}
