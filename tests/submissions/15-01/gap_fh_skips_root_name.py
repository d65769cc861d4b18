"""Known-wrong capture_activations (gap round): resolves names with getattr along the dotted path, so the
model itself (name '' in model.named_modules()) is rejected with KeyError instead of captured."""
from course.grading.class_run.submissions import edited

CELLS = {"capture_impl": edited("15-01", "capture_impl",
    ("    modules = dict(model.named_modules())\n    missing = [n for n in names if n not in modules]",
     "    modules, missing = {}, []\n"
     "    for n in names:\n"
     "        m = model\n"
     "        try:\n"
     "            for part in n.split('.'):\n"
     "                m = getattr(m, part)\n"
     "        except AttributeError:\n"
     "            missing.append(n)\n"
     "            continue\n"
     "        modules[n] = m"))}
EXPECT = {"forward_hooks": "fail"}
