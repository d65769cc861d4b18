"""Lets the observer watch every input, also in eval mode: the range learned in training drifts at test time."""
from course.grading.class_run.submissions import edited

EXPECT = {"qat": "fail"}
CELLS = {"qat_impl": edited("16-05", "qat_impl", ("""        if self.training:
            self.act_observer(x)""", """        self.act_observer(x)"""))}
