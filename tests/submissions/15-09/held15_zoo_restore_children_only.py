"""fixed_predict_proba remembers the mode of the root and of its direct children only, and restores each child with
child.train(mode), which recurses: a frozen batch norm (eval) nested inside a training block comes back in training
mode, and a training module nested inside an eval block comes back in eval mode."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "pass", "zoo": "fail", "leaks": "pass"}
CELLS = {"zoo_impl": edited("15-09", "zoo_impl", (
    "    modes = [(m, m.training) for m in model.modules()]  # each module's own: modes may be mixed\n",
    "    modes = [(model, model.training)] + [(c, c.training) for c in model.children()]\n"), (
    "        for m, was_training in modes:\n"
    "            m.training = was_training\n",
    "        model.training = modes[0][1]\n"
    "        for m, was_training in modes[1:]:\n"
    "            m.train(was_training)\n"))}
