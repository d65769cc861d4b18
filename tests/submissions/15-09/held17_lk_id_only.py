"""find_leaks remembers the ids of the live tensors only (a set of ints, so no reference is held) and calls a tensor
born when its id was not in the previous set: a tensor born in an iteration at the address of one that died in that
same iteration reuses its id and is never reported, the trap the text describes ("a dead tensor's id can be reused:
check that the weak reference still points at the same object")."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "pass", "zoo": "pass", "leaks": "fail"}
CELLS = {"leaks_impl": edited("15-09", "leaks_impl", (
    "        born.append([r for key, r in now.items() if key not in seen or seen[key]() is not r()])\n",
    "        born.append([r for key, r in now.items() if key not in seen])\n"))}
