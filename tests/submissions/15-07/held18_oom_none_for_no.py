"""Known-wrong will_oom (round 18): the last step is written `if need > device_free + releasable: return True`
and falls off the end, so when releasing the fully free segments makes room (step 3 succeeds) it returns
None, not False. The text's signature is will_oom(...) -> bool."""
from course.grading.class_run.submissions import edited

CELLS = {"oom_impl": edited(
    "15-07", "oom_impl",
    ("    return need > device_free + releasable                  # 3. release free segments, retry; 4. OOM\n",
     "    if need > device_free + releasable:                     # 3. release free segments, retry\n"
     "        return True                                         # 4. OOM\n"))}
EXPECT = {"oom_diagnosis": "fail"}
