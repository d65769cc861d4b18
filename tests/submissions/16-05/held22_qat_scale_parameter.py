"""Round 22: QATLinear keeps the last weight scale "so it is saved with the model" as an nn.Parameter with
requires_grad=False. Outputs and gradients are unchanged, but the module now has a third parameter, w_scale,
that model.parameters() hands to an optimiser and that a float twin's state_dict lacks. The text: "a subclass of
nn.Linear with the same parameters (weight, and bias unless bias=False)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"qat": "fail", "quant": "pass", "observer": "pass", "fake_quant": "pass", "qlinear": "pass"}
CELLS = {"qat_impl": edited("16-05", "qat_impl", (
    "        self.act_observer = RangeObserver(torch.uint8, averaging_constant=0.01)\n",
    "        self.act_observer = RangeObserver(torch.uint8, averaging_constant=0.01)\n"
    "        self.w_scale = nn.Parameter(torch.ones(1), requires_grad=False)  # saved with the model\n"),
    ("        s_w, _ = w_obs.calculate_qparams()\n",
     "        s_w, _ = w_obs.calculate_qparams()\n"
     "        with torch.no_grad():\n"
     "            self.w_scale.copy_(s_w)\n"))}
