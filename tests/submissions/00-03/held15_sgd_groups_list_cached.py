"""Keeps the list of param groups made in __init__ and steps over it. load_state_dict() replaces
self.param_groups with the saved groups, so hyperparameters saved after a scheduler changed them
(or a torch.optim.SGD state_dict with other values) are ignored: the resumed run uses the constructor's."""
from course.grading.class_run.submissions import edited

EXPECT = {"sgd": "fail"}
CELLS = {"sgd_impl": edited("00-03", "sgd_impl",
                            ("""        super().__init__(params, defaults)
""", """        super().__init__(params, defaults)
        self._groups = self.param_groups
"""),
                            ("""        for group in self.param_groups:
            mu, tau, wd""", """        for group in self._groups:
            mu, tau, wd"""))}
