"""Held-out round 17: the parameters are averaged as one flat vector with
torch.nn.utils.parameters_to_vector / vector_to_parameters. parameters_to_vector flattens each parameter with
.view(-1), which raises for a parameter that is not contiguous: a channels-last convolution
(model.to(memory_format=torch.channels_last)) or a transposed weight. The text: "`update(model)` ... every later
call sets each parameter to `decay * ema + (1 - decay) * live`" (for any model)."""
from course.grading.class_run.submissions import edited

EXPECT = {"ema": "fail"}
CELLS = {"ema_impl": edited(
    "15-04", "ema_impl",
    ("            for ema_p, p in zip(self.module.parameters(), model.parameters()):\n"
     "                if first:\n"
     "                    ema_p.copy_(p)\n"
     "                else:\n"
     "                    ema_p.lerp_(p.to(ema_p.device), 1.0 - self.decay)\n",
     "            live = torch.nn.utils.parameters_to_vector(model.parameters())\n"
     "            avg = torch.nn.utils.parameters_to_vector(self.module.parameters())\n"
     "            if first:\n"
     "                avg.copy_(live)\n"
     "            else:\n"
     "                avg.lerp_(live.to(avg.device), 1.0 - self.decay)\n"
     "            torch.nn.utils.vector_to_parameters(avg, self.module.parameters())\n"))}
