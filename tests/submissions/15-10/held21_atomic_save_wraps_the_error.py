"""Wrong (held-out round 21): atomic_save cleans up its temporary file on failure, but re-raises an ordinary
exception as a new OSError("atomic_save: could not write ...") (chained with `from`); only a BaseException that
is no Exception (KeyboardInterrupt) is re-raised as it is. A caller that catches the original type (a
RuntimeError from a full disk inside torch.save, a pickling error) no longer sees it. Contradicts "delete the
temporary file and re-raise that same exception"."""
from course.grading.class_run.submissions import edited

EXPECT = {"checkpoint": "fail"}
CELLS = {"checkpoint_impl": edited(
    "15-10", "checkpoint_impl",
    ("    except BaseException:\n        if os.path.exists(tmp):\n            os.unlink(tmp)\n        raise\n",
     "    except Exception as e:\n"
     "        if os.path.exists(tmp):\n"
     "            os.unlink(tmp)\n"
     "        raise OSError(f\"atomic_save: could not write {path}: {e}\") from e\n"
     "    except BaseException:\n"
     "        if os.path.exists(tmp):\n"
     "            os.unlink(tmp)\n"
     "        raise\n"))}
