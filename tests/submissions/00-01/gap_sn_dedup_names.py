"""Known-wrong stale_nodes (gap round): returns each stale name once ("two stale ExpBackward0 nodes give
the name twice")."""
from course.grading.class_run.submissions import edited

CELLS = {"stale_nodes_impl": edited("00-01", "stale_nodes_impl",
    ("    return sorted(stale)", "    return sorted(set(stale))"))}
EXPECT = {"stale_nodes": "fail"}
