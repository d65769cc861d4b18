"""Known-wrong atomic_save (round 18): deletes the temporary file on failure, then raises its own
RuntimeError("could not write ...") from the original error instead of re-raising it. The caller sees
another exception type (a KeyboardInterrupt or an OSError such as ENOSPC becomes a RuntimeError): against
"if anything fails, delete the temporary file and re-raise"."""
from course.grading.class_run.submissions import edited

CELLS = {"checkpoint_impl": edited("15-10", "checkpoint_impl", (
    "    except BaseException:\n        if os.path.exists(tmp):\n            os.unlink(tmp)\n        raise\n",
    "    except BaseException as err:\n        if os.path.exists(tmp):\n            os.unlink(tmp)\n"
    "        raise RuntimeError(f\"atomic_save: could not write {path}\") from err\n"))}
EXPECT = {"checkpoint": "fail"}
