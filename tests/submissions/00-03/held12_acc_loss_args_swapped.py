"""Round 12 (held out): loss_fn is called as loss_fn(target, output). The text fixes the order,
loss_fn(output, target); with F.mse_loss the swap changes nothing, with any loss that is not symmetric
(cross entropy, a weighted or a Huber-like custom loss) the gradient and loss are wrong."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "fail"}
CELLS = {"accumulate_impl": edited("00-03", "accumulate_impl", (
    "        loss = loss_fn(model(xb), yb)\n", "        loss = loss_fn(yb, model(xb))\n"))}
