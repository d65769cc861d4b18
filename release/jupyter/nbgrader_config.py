# nbgrader settings for students of Advanced PyTorch Internals. nbgrader finds this file in the
# Jupyter config folders (JUPYTER_CONFIG_PATH or JUPYTER_CONFIG_DIR, or the hub image's /etc/jupyter),
# so fetch, submit and fetch_feedback need no --course or --Exchange.root.
import os
import sys

c = get_config()  # noqa: F821  (provided by nbgrader)
c.CourseDirectory.course_id = "advanced-pytorch-internals"
# The folder your instructor shares with the class; NBGRADER_EXCHANGE overrides it.
c.Exchange.root = os.environ.get("NBGRADER_EXCHANGE", "/srv/nbgrader/exchange")

# A submission folder stays yours: nbgrader makes it writable by everyone (0777); here it is 0750: the
# grader reads it through the inbound folder's group (it passes on its group), classmates cannot enter it.
try:
    from nbgrader.exchange.default.submit import ExchangeSubmit

    if not getattr(ExchangeSubmit, "_course_closed", False):
        _copy_files = ExchangeSubmit.copy_files

        def _closed_copy_files(self):
            _copy_files(self)
            # the folder submit just made, opened without following a link (a name in the shared inbound
            # that is a link, or not this account's, is left alone) and changed through its descriptor
            try:
                fd = os.open(os.path.join(self.inbound_path, self.assignment_filename),
                             os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
            except OSError:  # a link or not a folder: not submit's own, so not ours to change
                return
            try:
                if os.fstat(fd).st_uid == os.geteuid():
                    os.fchmod(fd, 0o750)
            finally:
                os.close(fd)

        ExchangeSubmit.copy_files = _closed_copy_files
        ExchangeSubmit._course_closed = True
except ImportError:  # an nbgrader without the default exchange: nothing of it to change
    pass

# `nbgrader validate` in a terminal says what Validate says in JupyterLab, failures in full, exits 1 when a
# visible check fails, and runs the kernel on Unix sockets in a private folder (not TCP, which every account
# can reach). Without the course's student helpers nbgrader would drop this whole file (and the exchange
# above): say so instead.
try:
    from course.student.validate import private_kernel_channels, use_in_terminal
except ImportError as _exc:
    print(f"nbgrader_config.py: the course's student helpers are not installed for {sys.executable} ({_exc}); "
          f"validate speaks nbgrader's own words. Fix: use the class's environment (put its bin/ first on PATH), "
          f"or run `python -m pip install -r requirements.txt` in the course's release folder.", file=sys.stderr)
else:
    use_in_terminal()
    private_kernel_channels(c)
