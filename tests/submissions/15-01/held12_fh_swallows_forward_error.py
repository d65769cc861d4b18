"""capture_activations catches an exception from model(x) and returns what it captured so far: hooks are
removed, but the caller never learns that the forward pass failed (the task asks to clean up "even if
model(x) raised", not to hide the error)."""
from course.grading.class_run.submissions import edited

EXPECT = {"forward_hooks": "fail"}
CELLS = {"capture_impl": edited("15-01", "capture_impl",
                                ("        model(x)\n    finally:",
                                 "        model(x)\n    except Exception:\n        pass\n    finally:"))}
