"""Correct, written unusually: ScratchAdamW keeps "step" as a 0-dim tensor on the parameter's device (the text
allows a number or a 0-dim tensor) and reads it back with .item() for the bias corrections. Reading a value is
right on a GPU (it only syncs), so the grader's GPU stand-in must not reject it (the meta device cannot give
.item(); the stand-in then runs it on CPU parameters with meta as the default device)."""
from course.grading.class_run.submissions import edited

EXPECT = {"adamw": "pass"}
CELLS = {"adamw_impl": edited("00-03", "adamw_impl", (
    '''                    state["step"] = 0
''', '''                    state["step"] = torch.zeros((), dtype=torch.float32, device=p.device)
'''), (
    '''                t = int(state["step"]) + 1
                state["step"] = t''', '''                state["step"] += 1
                t = int(state["step"].item())'''))}
