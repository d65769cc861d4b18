# The scores through torch.bmm on leading dimensions flattened with reshape(-1, ...): right for every
# non-empty input, but a reshape with -1 cannot infer a size from 0 elements, so no query (L = 0) or an
# empty batch raises instead of returning the (..., 0, Ev) / (0, L, Ev) result PyTorch returns
# ("q has shape (..., L, E) ... with S >= 1": only S must be positive).
from course.grading.class_run.submissions import edited

EXPECT = {"sdpa": "fail"}
CELLS = {"sdpa_impl": edited("16-03", "sdpa_impl", (
    "    scores = (q @ k.transpose(-2, -1)) * scale\n",
    "    lead = torch.broadcast_shapes(q.shape[:-2], k.shape[:-2])\n"
    "    q3 = q.expand(*lead, L, q.shape[-1]).reshape(-1, L, q.shape[-1])\n"
    "    k3 = k.expand(*lead, S, k.shape[-1]).reshape(-1, S, k.shape[-1])\n"
    "    scores = torch.bmm(q3, k3.transpose(1, 2)).reshape(*lead, L, S) * scale\n"))}
