"""Wrong: device_correct_adamw_step_tensor_item's .item() (which sends the grader's GPU stand-in to its CPU
form), with the moments made by torch.zeros(p.shape) without device=, so on a GPU they stay on the CPU ("exp_avg
and exp_avg_sq: tensors of p's shape, dtype and device")."""
from course.grading.class_run.submissions import edited

EXPECT = {"adamw": "fail"}
CELLS = {"adamw_impl": edited("00-03", "adamw_impl", (
    '''                    state["step"] = 0
                    state["exp_avg"] = torch.zeros_like(p)
                    state["exp_avg_sq"] = torch.zeros_like(p)
''', '''                    state["step"] = torch.zeros((), dtype=torch.float32, device=p.device)
                    state["exp_avg"] = torch.zeros(p.shape, dtype=p.dtype)
                    state["exp_avg_sq"] = torch.zeros(p.shape, dtype=p.dtype)
'''), (
    '''                t = int(state["step"]) + 1
                state["step"] = t''', '''                state["step"] += 1
                t = int(state["step"].item())'''))}
