"""Wrong (held-out round 26): trainer_state_dict / trainer_load_state_dict save and load the sampler's state only
when it is a ResumableRandomSampler (isinstance), instead of whenever the loader's sampler has
state_dict / load_state_dict. Section 7: '"sampler" (the loader's sampler's state_dict(), or None if it has
none)'. Input: a loader whose sampler is another stateful sampler (any class with state_dict/load_state_dict
that is not a ResumableRandomSampler, e.g. a DistributedSampler-like one with a resume position): the
checkpoint holds "sampler": None and a run resumed mid-epoch replays the epoch from its start."""
from course.grading.class_run.submissions import edited

EXPECT = {"resume": "fail"}
CELLS = {"resume_impl": edited(
    "15-10", "resume_impl",
    ("\"sampler\": sampler.state_dict() if hasattr(sampler, \"state_dict\") else None,",
     "\"sampler\": sampler.state_dict() if isinstance(sampler, ResumableRandomSampler) else None,"),
    ("if ckpt.get(\"sampler\") is not None and hasattr(sampler, \"load_state_dict\"):",
     "if ckpt.get(\"sampler\") is not None and isinstance(sampler, ResumableRandomSampler):"))}
