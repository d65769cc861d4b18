"""``python -m course.grading.report``: the class report (``page.py``)."""
import sys

from .page import main

if __name__ == "__main__":
    sys.exit(main())
