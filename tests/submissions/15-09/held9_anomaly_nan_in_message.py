"""Held-out round 9: find_nan_origin treats every RuntimeError whose message mentions "nan" as anomaly mode's
report (and answers {"op": None, "lineno": None} when no node name is in it), so an error such as
torch.multinomial's "probability tensor contains either `inf`, `nan` or element < 0" is swallowed; the text says
any exception that is not anomaly mode's NaN report propagates unchanged."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "fail", "gradcheck": "pass", "monitor": "pass", "zoo": "pass", "leaks": "pass"}
CELLS = {"anomaly_impl": edited(
    "15-09", "anomaly_impl",
    ("            found = re.search(r\"Function '([^']+)' returned nan values\", str(err))\n"
     "            if found is None:\n                raise\n",
     "            if \"nan\" not in str(err):\n                raise  # not a NaN problem\n"
     "            found = re.search(r\"Function '([^']+)' returned nan values\", str(err))\n"),
    ("    op = found.group(1)\n", "    op = found.group(1) if found else None\n"))}
