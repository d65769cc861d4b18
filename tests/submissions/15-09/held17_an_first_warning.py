"""find_nan_origin reads the forward traceback from the first warning it collected (caught[0]) instead of anomaly
mode's own report ("Error detected in ..."): the first one is detect_anomaly's "Anomaly Detection has been enabled"
notice (or a warning loss_fn issues in its forward pass), which holds no traceback, so "lineno" comes back None
although the text asks for the line of the forward call that created the node named in the error."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "fail", "gradcheck": "pass", "monitor": "pass", "zoo": "pass", "leaks": "pass"}
CELLS = {"anomaly_impl": edited("15-09", "anomaly_impl", (
    "    for w in caught:\n"
    "        text = str(w.message)\n"
    "        if f\"Error detected in {op}.\" not in text:\n"
    "            continue\n"
    "        for f_name, line in re.findall(r'File \"(.*)\", line (\\d+)', text):\n"
    "            if f_name == filename:\n"
    "                lineno = int(line)\n",
    "    text = str(caught[0].message) if caught else \"\"  # anomaly mode's warning\n"
    "    for f_name, line in re.findall(r'File \"(.*)\", line (\\d+)', text):\n"
    "        if f_name == filename:\n"
    "            lineno = int(line)\n"))}
