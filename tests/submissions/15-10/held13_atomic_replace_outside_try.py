"""Held-out round 13: only the write is inside the try; os.replace comes after it. When the rename
itself fails (the target is a folder, a read-only or vanished directory), the exception propagates but
the temporary file stays in the folder. The text: "4. if anything fails, delete the temporary file
and re-raise"."""
from course.grading.class_run.submissions import edited

EXPECT = {"checkpoint": "fail"}
CELLS = {"checkpoint_impl": edited(
    "15-10", "checkpoint_impl",
    ("            os.fsync(f.fileno())\n        os.replace(tmp, path)\n    except BaseException:\n"
     "        if os.path.exists(tmp):\n            os.unlink(tmp)\n        raise\n",
     "            os.fsync(f.fileno())\n    except BaseException:\n"
     "        if os.path.exists(tmp):\n            os.unlink(tmp)\n        raise\n    os.replace(tmp, path)\n"))}
