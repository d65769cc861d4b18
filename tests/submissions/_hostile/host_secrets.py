"""Reads root-only host files (the shadow file, SSH host keys, TLS private keys) and prints them
into its feedback. The sandbox shows only an allow-list of /etc, and graded as root it runs as an
account of its own, so there is nothing to read."""
EXPECT_TOTAL = 0
BASE = "release"
ATTACK = r'''
import glob, os
for _p in ["/etc/shadow", "/etc/gshadow", "/etc/sudoers", *glob.glob("/etc/ssh/*key*"),
           *glob.glob("/etc/ssl/private/*"), "/root/.bash_history", "/proc/1/environ"]:
    try:
        print(_p, open(_p, "rb").read(400))
    except Exception as _e:
        print(_p, "->", type(_e).__name__)
print("uid", os.getuid(), "etc:", sorted(os.listdir("/etc")))
'''
def mutate(nb):
    import nbformat
    nb.cells.insert(2, nbformat.v4.new_code_cell(ATTACK))
