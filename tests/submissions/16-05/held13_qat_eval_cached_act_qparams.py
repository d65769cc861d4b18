# In eval mode the activation qparams are computed once, at the first eval call, and cached: after more
# training and a second eval phase the stale range is used. Breaks "In eval mode, forward does the same
# without updating act_observer" ((s_x, z_x) is act_observer.calculate_qparams(), now).
from course.grading.class_run.submissions import edited

EXPECT = {"qat": "fail"}
CELLS = {"qat_impl": edited("16-05", "qat_impl", (
    "        s_x, z_x = self.act_observer.calculate_qparams()\n",
    "        if self.training:\n"
    "            s_x, z_x = self.act_observer.calculate_qparams()\n"
    "        else:  # the range is frozen in eval mode: compute it once\n"
    "            if getattr(self, '_eval_qparams', None) is None:\n"
    "                self._eval_qparams = self.act_observer.calculate_qparams()\n"
    "            s_x, z_x = self._eval_qparams\n"))}
