"""Round 29 (held out): register_ema() registers the operator correctly but returns torch.ops.c1601.ema_ (the
dispatcher's OpOverloadPacket) instead of the CustomOpDef that torch.library.custom_op made. Calls behave the same,
but the returned object has no register_fake / register_autograd / register_kernel. Breaks "register_ema()
registers the operator c1601::ema_ ... and returns it (the CustomOpDef)": isinstance(register_ema(),
torch._library.custom_ops.CustomOpDef) is False."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "fail", "fused": "pass", "triton": "pass"}
CELLS = {"ema_impl": edited("16-01", "ema_impl", (
    "    return ema_\n",
    "    return torch.ops.c1601.ema_  # the operator, as the dispatcher knows it\n"))}
