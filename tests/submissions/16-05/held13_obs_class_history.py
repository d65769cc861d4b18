# The running extremes are kept in a list defined in the class body (a classic Python slip): every
# RangeObserver shares one history, so a fresh observer's min_val / max_val include what other observers
# have seen. Breaks "min_val and max_val are the extremes over every tensor observed so far" (by this
# observer).
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "fail"}
CELLS = {"observer_impl": edited("16-05", "observer_impl", (
    '    """Records the range of the tensors it sees and proposes (scale, zero_point) for int8 or uint8."""\n',
    '    """Records the range of the tensors it sees and proposes (scale, zero_point) for int8 or uint8."""\n'
    "    _lows, _highs = [], []\n"), (
    "        elif self.c is None:\n"
    "            self.min_val, self.max_val = torch.minimum(self.min_val, lo), torch.maximum(self.max_val, hi)\n",
    "        elif self.c is None:\n"
    "            self._lows.append(lo)\n"
    "            self._highs.append(hi)\n"
    "            self.min_val = torch.minimum(self.min_val, torch.stack(self._lows).amin(0))\n"
    "            self.max_val = torch.maximum(self.max_val, torch.stack(self._highs).amax(0))\n"))}
