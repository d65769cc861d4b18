"""Wrong (held-out round 30): capture_rng_state fills and returns one module-level dict, so every call returns
the same object and a later capture overwrites an earlier snapshot. Section 3: capture_rng_state returns "a
snapshot" of the generators (what restore_rng_state puts back). Input: s1 = capture_rng_state(); draw some
numbers; s2 = capture_rng_state(); restore_rng_state(s1): the generators go back to the second point, not the
first (s1 is s2)."""
from course.grading.class_run.submissions import edited

EXPECT = {"rng": "fail"}
CELLS = {"rng_impl": edited(
    "15-10", "rng_impl",
    ("def capture_rng_state() -> dict:\n",
     "_RNG_SNAPSHOT = {}\n\n\ndef capture_rng_state() -> dict:\n"),
    ("    if torch.cuda.is_available():\n        state[\"cuda\"] = torch.cuda.get_rng_state_all()\n    return state\n",
     "    if torch.cuda.is_available():\n        state[\"cuda\"] = torch.cuda.get_rng_state_all()\n"
     "    _RNG_SNAPSHOT.clear()\n    _RNG_SNAPSHOT.update(state)\n    return _RNG_SNAPSHOT\n"))}
