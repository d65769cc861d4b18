"""find_nan_origin calls warnings.simplefilter("always") before entering warnings.catch_warnings(record=True),
believing that catch_warnings restores the filters; it restores the list as it was at entry, which already starts
with the new "always" entry. After any call the caller's own filters are overridden for good: a notebook that ran
warnings.filterwarnings("ignore") (the case the text names) sees every warning again, and one that ran
warnings.filterwarnings("error") has its warnings no longer raised. Breaks "It works whatever warning filters are
active" / "no warning escapes from it" as a side effect that outlives the call: the call changes the warning
filters the caller had set."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "fail", "gradcheck": "pass", "monitor": "pass", "zoo": "pass", "leaks": "pass"}
CELLS = {"anomaly_impl": edited("15-09", "anomaly_impl", (
    """    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
""",
    """    warnings.simplefilter("always")  # make sure anomaly mode's warning is recorded
    with warnings.catch_warnings(record=True) as caught:
"""))}
