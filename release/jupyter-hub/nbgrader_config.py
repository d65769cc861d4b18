# nbgrader settings for students of Advanced PyTorch Internals. nbgrader finds this file in the
# Jupyter config folders (JUPYTER_CONFIG_PATH or JUPYTER_CONFIG_DIR, or the hub image's /etc/jupyter),
# so fetch, submit and fetch_feedback need no --course or --Exchange.root.
import os

from course.student.validate import private_kernel_channels, use_in_terminal

c = get_config()  # noqa: F821  (provided by nbgrader)
c.CourseDirectory.course_id = "advanced-pytorch-internals"
# The folder your instructor shares with the class; NBGRADER_EXCHANGE overrides it.
c.Exchange.root = os.environ.get("NBGRADER_EXCHANGE", "/srv/nbgrader/exchange")
# `nbgrader validate` in a terminal says what Validate says in JupyterLab, failures in full, and
# exits 1 when a visible check fails.
use_in_terminal()
# The notebook's kernel on Unix sockets in a private folder (not TCP, which every account can reach).
private_kernel_channels(c)
