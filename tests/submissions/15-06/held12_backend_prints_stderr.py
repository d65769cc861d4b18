"""Held-out round 12 (issue 39): the recording backend writes the graph to sys.stderr. Breaks:
"backend(gm, example_inputs) prints the graph it received" (print: standard output, where the notebook
shows it with the cell's output)."""
from course.grading.class_run.submissions import edited

CELLS = {"recording_backend_impl": edited("15-06", "recording_backend_impl",
                                          ("        print(f\"--- graph {len(graphs)} captured by Dynamo ({len(example_inputs)} inputs) ---\")\n"
                                           "        print(gm.graph)\n",
                                           "        import sys\n"
                                           "        print(f\"--- graph {len(graphs)} captured by Dynamo ---\", file=sys.stderr)\n"
                                           "        print(gm.graph, file=sys.stderr)\n"))}
EXPECT = {"recording_backend": "fail"}
