"""Held-out round 10: make_loader builds ResumableRandomSampler(len(dataset)) and gives only the loader's
generator the seed, so every loader shuffles with seed 0 whatever seed it is given. The text (make_loader's
docstring) says the loader has a ResumableRandomSampler(len(dataset), seed)."""
from course.grading.class_run.submissions import edited

EXPECT = {"clipping": "pass", "sampler": "fail", "rng": "pass", "callbacks": "pass", "checkpoint": "pass",
          "trainer": "pass", "resume": "pass"}
CELLS = {"sampler_impl": edited(
    "15-10", "sampler_impl",
    ("sampler=ResumableRandomSampler(len(dataset), seed),", "sampler=ResumableRandomSampler(len(dataset)),"))}
