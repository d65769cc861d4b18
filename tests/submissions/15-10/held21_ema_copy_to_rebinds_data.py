"""Wrong (held-out round 21): EMACallback.copy_to sets p.data = s.clone() for each parameter instead of copying
into it. The values match, but the parameter's storage is replaced: a module of another dtype (an inference copy
in bfloat16 or float64) or on another device comes back with float32 parameters where the shadow lives, and a
tensor that shares the parameter's storage (a view, a tied or registered alias) keeps the old weights.
Contradicts "copy_to(module), which copies the averaged weights into a module's parameters" and the docstring
"Write the averaged weights into module's parameters (in place)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"callbacks": "fail"}
CELLS = {"callbacks_impl": edited(
    "15-10", "callbacks_impl",
    ("        with torch.no_grad():\n            for p, s in zip(module.parameters(), self.shadow):\n"
     "                p.copy_(s)\n",
     "        for p, s in zip(module.parameters(), self.shadow):\n"
     "            p.data = s.detach().clone()\n"))}
