"""Three realistic mistakes in different tasks; the other tasks keep the reference solution.

- quantize rounds halves up (floor(v + 0.5));
- quantized_linear forgets the activations' zero point;
- QATLinear lets its observer watch inputs in eval mode too.
"""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "fail", "observer": "pass", "fake_quant": "pass", "qlinear": "fail", "qat": "fail"}
JUDGE_PASS = True  # judged on its passing tasks too: a mistake in one task costs no points in another
CELLS = {
    "quant_impl": edited("16-05", "quant_impl", ("torch.round(x * inv)", "torch.floor(x * inv + 0.5)")),
    "qlinear_impl": edited("16-05", "qlinear_impl", ("(qx.to(torch.int32) - x_zero_point)", "qx.to(torch.int32)")),
    "qat_impl": edited("16-05", "qat_impl", ("""        if self.training:
            self.act_observer(x)""", """        self.act_observer(x)""")),
}
