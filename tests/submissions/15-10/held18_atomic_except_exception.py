"""Known-wrong atomic_save (round 18): cleans up its temporary file in `except Exception:` only. A save
interrupted by KeyboardInterrupt (Ctrl-C during a long torch.save) or SystemExit leaves the temporary
file behind: against "if anything fails, delete the temporary file and re-raise"."""
from course.grading.class_run.submissions import edited

CELLS = {"checkpoint_impl": edited("15-10", "checkpoint_impl", (
    "    except BaseException:\n        if os.path.exists(tmp):",
    "    except Exception:\n        if os.path.exists(tmp):"))}
EXPECT = {"checkpoint": "fail"}
