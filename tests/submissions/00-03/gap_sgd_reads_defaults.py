"""Known-wrong MomentumSGD (gap round): step() reads momentum, dampening and weight decay from
self.defaults instead of each parameter group, so groups with their own values are stepped with the
constructor's ("including models given as several parameter groups with different hyperparameters")."""
from course.grading.class_run.submissions import edited

CELLS = {"sgd_impl": edited("00-03", "sgd_impl",
    ("            mu, tau, wd = group[\"momentum\"], group[\"dampening\"], group[\"weight_decay\"]",
     "            mu, tau, wd = self.defaults[\"momentum\"], self.defaults[\"dampening\"], self.defaults[\"weight_decay\"]"))}
EXPECT = {"sgd": "fail"}
