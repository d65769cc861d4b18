"""Skips a group whose lr is 0 ("nothing would move"). torch.optim.SGD still updates the momentum buffer
(and creates it) at lr 0, so after a warm-up that starts at 0 the steps differ."""
from course.grading.class_run.submissions import edited

EXPECT = {"sgd": "fail"}
CELLS = {"sgd_impl": edited("00-03", "sgd_impl", (
    """            mu, tau, wd = group["momentum"], group["dampening"], group["weight_decay"]
""",
    """            mu, tau, wd = group["momentum"], group["dampening"], group["weight_decay"]
            if group["lr"] == 0:
                continue
"""))}
