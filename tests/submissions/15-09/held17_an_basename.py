"""find_nan_origin matches the traceback's frames to the loss file by base name only
(os.path.basename(f_name) == os.path.basename(filename)): when the loss is defined in a file that shares its base
name with one of torch's own (a functional.py, a loss.py) and the NaN node was created inside that torch file, the
innermost matching frame is torch's, not the loss file's, although the text asks for the innermost frame "whose file
is the file that defines loss_fn"."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "fail", "gradcheck": "pass", "monitor": "pass", "zoo": "pass", "leaks": "pass"}
CELLS = {"anomaly_impl": edited("15-09", "anomaly_impl", (
    "            if f_name == filename:\n",
    "            if f_name.replace(\"\\\\\", \"/\").rsplit(\"/\", 1)[-1] == filename.replace(\"\\\\\", \"/\").rsplit(\"/\", 1)[-1]:\n"))}
