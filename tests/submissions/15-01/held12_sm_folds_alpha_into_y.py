"""ScaledMul folds alpha into y in place when y needs no gradient ("saves a multiply"): the output and
gradients are right, but the caller's y is changed by the call (ScaledMul.apply(x, y, alpha) = alpha*x*y
is a function of its inputs; nothing lets it rewrite them)."""
from course.grading.class_run.submissions import edited

EXPECT = {"scaled_mul": "fail"}
CELLS = {"scaled_mul_impl": edited("15-01", "scaled_mul_impl",
                                   ("        ctx.save_for_backward(x, y)\n        ctx.alpha = alpha\n"
                                    "        return alpha * x * y",
                                    "        if not y.requires_grad:\n"
                                    "            y.mul_(alpha)  # fold alpha into the constant\n"
                                    "            ctx.save_for_backward(x, y)\n"
                                    "            ctx.alpha = 1.0\n"
                                    "            return x * y\n"
                                    "        ctx.save_for_backward(x, y)\n        ctx.alpha = alpha\n"
                                    "        return alpha * x * y"))}
