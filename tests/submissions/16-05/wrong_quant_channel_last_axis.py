"""Per channel, broadcasts the scales and zero points along the last dimension whatever the axis."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "fail"}
CELLS = {"quant_impl": edited("16-05", "quant_impl", ("""    shape = [1] * ndim
    shape[axis] = -1
    return t.reshape(shape)""", """    return t.reshape(-1)"""))}
