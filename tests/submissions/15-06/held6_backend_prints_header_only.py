"""Wrong: "backend(gm, example_inputs) prints the graph it received (any readable form: print(gm.graph),
gm.print_readable(), print(gm.code))". This backend prints only a one-line header (the graph's number and
how many inputs it has), never the graph itself; it still records every graph and returns gm.forward."""
from course.grading.class_run.submissions import edited

EXPECT = {"recording_backend": "fail"}
CELLS = {"recording_backend_impl": edited("15-06", "recording_backend_impl", ("        print(gm.graph)\n", ""))}
