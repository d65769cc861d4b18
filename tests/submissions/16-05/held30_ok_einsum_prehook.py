"""Round 30, a correct answer written unusually: quantized_linear accumulates with torch.einsum on int32
operands ('...k,mk->...m', no @); QATLinear observes its input in a forward pre-hook registered in __init__ (a
lambda that watches args[0] only in training mode and returns None), so forward itself only reads the observer."""
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "pass", "quant": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {
    "qlinear_impl": edited("16-05", "qlinear_impl", (
        "    acc = (qx.to(torch.int32) - x_zero_point) @ qw.to(torch.int32).T\n",
        "    acc = torch.einsum('...k,mk->...m', qx.to(torch.int32) - x_zero_point, qw.to(torch.int32))\n")),
    "qat_impl": edited("16-05", "qat_impl", (
        "        self.act_observer = RangeObserver(torch.uint8, averaging_constant=0.01)\n",
        "        self.act_observer = RangeObserver(torch.uint8, averaging_constant=0.01)\n"
        "        self.register_forward_pre_hook(\n"
        "            lambda mod, args: None if not mod.training else (mod.act_observer(args[0]), None)[1])\n"), (
        "        if self.training:\n"
        "            self.act_observer(x)\n",
        "")),
}
