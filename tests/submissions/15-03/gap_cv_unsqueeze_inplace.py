"""Known-wrong convert_checkpoint (gap round): turns the output layer's weight into (K, H, 1, 1) with
in-place unsqueeze_, which changes the tensor the old state dict holds ("Do not modify old_state
itself")."""
from course.grading.class_run.submissions import edited

CELLS = {"convert_impl": edited("15-03", "convert_impl",
    ("            value = value.reshape(*value.shape, 1, 1)", "            value = value.unsqueeze_(-1).unsqueeze_(-1)"))}
EXPECT = {"convert": "fail"}
