"""zoo: fixed_predict_proba puts the model in eval() but sets the mode back by hand on the model and its
direct children only, so Dropout and BatchNorm nested deeper stay in eval mode. Breaks 'leaves the model in
the mode it was in' on a nested model (caught by test_predict_nested_model, strategies.model_specs)."""
from course.grading.class_run.submissions import edited

BASE = "reference"
CELLS = {"zoo_impl": edited("15-09", "zoo_impl", ("        for m, was_training in modes:\n            m.training = was_training\n",
    "        model.training = modes[0][1]\n        for m in model.children():\n            m.training = modes[0][1]\n"))}
EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "pass", "zoo": "fail", "leaks": "pass"}
