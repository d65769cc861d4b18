"""Wrong (held-out round 3): accumulate_grads switches the model to train mode for its forwards and back
afterwards: the mode is as before the call, but a model in eval mode (dropout, BatchNorm) gets the
gradient of a train-mode forward, not of loss_fn(model(inputs), targets) as it stands."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "fail", "sgd": "pass", "adamw": "pass", "schedule": "pass", "collate": "pass"}
CELLS = {"accumulate_impl": edited("00-03", "accumulate_impl", (
    "    total = 0.0\n", "    total = 0.0\n    was_training = model.training\n    model.train()\n"), (
    "    return total\n", "    model.train(was_training)\n    return total\n"))}
