"""find_nan_origin switches anomaly mode on with torch.autograd.set_detect_anomaly(True) and off again in each branch
it expects: after a RuntimeError, after any other Exception, and after a clean backward. A KeyboardInterrupt (Ctrl-C
while loss_fn runs a long forward, or any BaseException that is not an Exception) goes through none of them and leaves
anomaly detection switched on for the rest of the session, against "Anomaly detection is off again when the function
returns or raises". Wrong for loss_fn = lambda x: raise KeyboardInterrupt (torch.is_anomaly_enabled() is True
afterwards)."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "fail", "gradcheck": "pass", "monitor": "pass", "zoo": "pass", "leaks": "pass"}
CELLS = {"anomaly_impl": edited("15-09", "anomaly_impl", (
    """        try:
            with torch.autograd.detect_anomaly():
                loss = loss_fn(x)
                loss.backward()
        except RuntimeError as err:
            found = re.search(r"Function '([^']+)' returned nan values", str(err))
            if found is None:
                raise
        else:
            return None
""",
    """        torch.autograd.set_detect_anomaly(True)
        try:
            loss = loss_fn(x)
            loss.backward()
        except RuntimeError as err:
            torch.autograd.set_detect_anomaly(False)
            found = re.search(r"Function '([^']+)' returned nan values", str(err))
            if found is None:
                raise
        except Exception:
            torch.autograd.set_detect_anomaly(False)
            raise
        else:
            torch.autograd.set_detect_anomaly(False)
            return None
"""))}
