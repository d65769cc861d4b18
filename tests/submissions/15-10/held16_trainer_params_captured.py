"""Known-wrong Trainer (round 16): collects the optimizer's parameters once, when fit() starts, and
measures and clips that list at every step. A parameter group added later (optimizer.add_param_group, as
an unfreezing callback does) is missing from the logged grad_norm and is never clipped: the text's
"global L2 norm of the gradients" and "Clip with your clip_grad_norm" read the optimizer at each step."""
from course.grading.class_run.submissions import edited

CELLS = {"trainer_impl": edited("15-10", "trainer_impl", (
    '        self.call("on_fit_start")\n',
    '        self._params = [p for group in self.optimizer.param_groups for p in group["params"]]\n'
    '        self.call("on_fit_start")\n'), (
    '        params = [p for group in self.optimizer.param_groups for p in group["params"]]\n',
    '        params = self._params\n'))}
EXPECT = {"trainer": "fail"}
