"""Held-out round 12: find_nan_origin lets through only the warning it needs
(warnings.filterwarnings("always", message="Error detected in")) instead of overriding every filter. Under
warnings.filterwarnings("error") anomaly mode's own "Anomaly Detection has been enabled" warning becomes an
exception that escapes. The text says: "It works whatever warning filters are active"."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "fail", "gradcheck": "pass", "monitor": "pass", "zoo": "pass", "leaks": "pass"}
CELLS = {"anomaly_impl": edited(
    "15-09", "anomaly_impl",
    ('        warnings.simplefilter("always")\n',
     '        warnings.filterwarnings("always", message="Error detected in")\n'))}
