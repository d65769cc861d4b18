"""Held-out round 9: find_nan_origin switches anomaly mode on with set_detect_anomaly and records warnings
around loss.backward() only, so a warning that loss_fn itself issues during the forward pass reaches the
caller; the text says no warning escapes from find_nan_origin."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "fail", "gradcheck": "pass", "monitor": "pass", "zoo": "pass", "leaks": "pass"}
CELLS = {"anomaly_impl": edited(
    "15-09", "anomaly_impl",
    ("    with warnings.catch_warnings(record=True) as caught:\n"
     "        warnings.simplefilter(\"always\")\n"
     "        try:\n"
     "            with torch.autograd.detect_anomaly():\n"
     "                loss = loss_fn(x)\n"
     "                loss.backward()\n"
     "        except RuntimeError as err:\n"
     "            found = re.search(r\"Function '([^']+)' returned nan values\", str(err))\n"
     "            if found is None:\n"
     "                raise\n"
     "        else:\n"
     "            return None\n",
     "    torch.autograd.set_detect_anomaly(True)\n"
     "    try:\n"
     "        loss = loss_fn(x)  # the forward only stores tracebacks: the warning comes from backward\n"
     "        with warnings.catch_warnings(record=True) as caught:\n"
     "            warnings.simplefilter(\"always\")\n"
     "            loss.backward()\n"
     "    except RuntimeError as err:\n"
     "        found = re.search(r\"Function '([^']+)' returned nan values\", str(err))\n"
     "        if found is None:\n"
     "            raise\n"
     "    else:\n"
     "        return None\n"
     "    finally:\n"
     "        torch.autograd.set_detect_anomaly(False)\n"))}
