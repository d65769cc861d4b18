"""Held-out round 15: the recording backend prints only the first graph it receives (to keep the log short) and
records every one. With a graph break the second graph is recorded but never printed. Breaks: "backend(gm,
example_inputs) prints the graph it received" (each call)."""
from course.grading.class_run.submissions import edited

EXPECT = {"recording_backend": "fail"}
CELLS = {"recording_backend_impl": edited(
    "15-06", "recording_backend_impl",
    ("        print(f\"--- graph {len(graphs)} captured by Dynamo ({len(example_inputs)} inputs) ---\")\n"
     "        print(gm.graph)\n",
     "        if not graphs:  # print the first graph only, the rest are recorded\n"
     "            print(f\"--- graph {len(graphs)} captured by Dynamo ({len(example_inputs)} inputs) ---\")\n"
     "            print(gm.graph)\n"))}
