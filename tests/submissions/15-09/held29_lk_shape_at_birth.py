"""Held-out round 29 (15-09 leaks): find_leaks records each new tensor's shape when it is born (with a weak
reference, so no tensor is held) and returns those recorded shapes for the ones still alive after the last call.
A leaked tensor whose shape changes after its birth (a buffer kept in a list and grown in place with resize_, a
parameter whose .data is replaced by a larger tensor) is reported with its old shape: a step that, in call k,
appends torch.zeros(2) and resizes every earlier kept buffer to (k, 3) gets [(2,), (2,)] instead of the shapes
the tensors have, [(n, 3), ...].
Breaks "It returns the shapes (tuples) of the tensors born in iterations 2 to n_iters - 1 that are still alive
after the last call": the shapes of those tensors, not the shapes they once had."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "pass", "zoo": "pass", "leaks": "fail"}
CELLS = {"leaks_impl": edited("15-09", "leaks_impl", (
    "        born.append([r for key, r in now.items() if key not in seen or seen[key]() is not r()])\n",
    """        group = []
        for key, r in now.items():
            if key not in seen or seen[key]() is not r():
                t = r()
                if t is not None:
                    group.append((r, tuple(t.shape)))  # the shape now, while the weakref is fresh
                del t
        born.append(group)
"""), (
    "    return [tuple(t.shape) for group in born[1:n_iters - 1] for r in group if (t := r()) is not None]\n",
    "    return [shape for group in born[1:n_iters - 1] for r, shape in group if r() is not None]\n"))}
