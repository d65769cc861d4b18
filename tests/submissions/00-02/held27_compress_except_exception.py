"""Held-out round 27: `compressed_saved_tensors` is a generator context manager that removes its hooks on a
normal exit and in `except Exception:`. An exception that is not an `Exception` (KeyboardInterrupt when the user
stops a long forward, SystemExit) goes through the `yield` without reaching either exit, and the hooks stay
installed: every later forward of the session is silently compressed. The text: "When the block ends, also by an
exception, no saved-tensor hooks of yours are left installed"."""
from course.grading.class_run.submissions import edited

EXPECT = {"graph": "pass", "engine": "pass", "compress": "fail", "evaluate": "pass", "checkpoint": "pass"}
CELLS = {"compress_impl": edited(
    "00-02", "compress_impl",
    ("""def compressed_saved_tensors():
    \"\"\"A context manager: saved tensors go through pack_compressed / unpack_compressed.\"\"\"
    ### BEGIN SOLUTION
    return torch.autograd.graph.saved_tensors_hooks(pack_compressed, unpack_compressed)
""", """@contextlib.contextmanager
def compressed_saved_tensors():
    \"\"\"A context manager: saved tensors go through pack_compressed / unpack_compressed.\"\"\"
    ### BEGIN SOLUTION
    hooks = torch.autograd.graph.saved_tensors_hooks(pack_compressed, unpack_compressed)
    hooks.__enter__()
    try:
        yield
    except Exception:
        hooks.__exit__(None, None, None)
        raise
    hooks.__exit__(None, None, None)
"""))}
