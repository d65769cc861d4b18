"""Known-wrong time_op (round 18): on CUDA it saves the GPU's random-number state before the calls and
restores it afterwards, "so that timing does not disturb the caller's random stream". The text: time_op
changes none of the caller's random-number state itself, "so the caller finds them as fn left them" - a
fn that draws random numbers on the GPU must leave the GPU generator advanced."""
from course.grading.class_run.submissions import edited

CELLS = {"timing_impl": edited(
    "15-07", "timing_impl",
    ("    device = torch.device(device)\n",
     "    device = torch.device(device)\n"
     "    cuda_rng = torch.cuda.get_rng_state(device) if device.type == \"cuda\" else None  # leave it as found\n"),
    ("        end.synchronize()\n",
     "        end.synchronize()\n        torch.cuda.set_rng_state(cuda_rng, device)\n"))}
EXPECT = {"cuda_timing": "fail"}
