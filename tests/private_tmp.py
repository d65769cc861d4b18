"""A private /tmp for a test's child process in a mount namespace of its own (``unshare --mount``): the
machine's /tmp is hidden, so what a test plants there (another account's files) never reaches the machine,
while the checkout and its virtual environment stay where they are even when they live under /tmp (a clean
clone in /tmp, as CI's may be). ``PRELUDE`` is Python source for the child, after ``import os, subprocess,
sys``, with ``REPO`` replaced by the checkout's path."""

PRELUDE = r'''
def _private_tmp(keep):
    import os, subprocess
    kept = sorted({os.path.abspath(k) for k in keep if os.path.abspath(k).startswith("/tmp/")})
    kept = [p for p in kept if not any(p.startswith(q + "/") for q in kept if q != p)]
    if kept:  # the old /tmp, held where the new one cannot hide it, to bind the checkout back from
        subprocess.run(["mount", "-t", "tmpfs", "-o", "mode=1777", "course-hold", "/dev/shm"], check=True)
        os.mkdir("/dev/shm/old-tmp")
        subprocess.run(["mount", "--bind", "/tmp", "/dev/shm/old-tmp"], check=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", "mode=1777", "course-private-tmp", "/tmp"], check=True)
    for p in kept:
        os.makedirs(p)
        subprocess.run(["mount", "--bind", os.path.join("/dev/shm/old-tmp", os.path.relpath(p, "/tmp")), p],
                       check=True)
_private_tmp([REPO, sys.prefix, os.path.dirname(sys.executable)])
'''
