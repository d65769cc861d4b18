"""A class run says in one line when other login accounts can read the grading sandboxes' processes in /proc."""
from course.grading.class_run import proc_privacy as pp

OPEN = "22 27 0:21 / /proc rw,relatime - proc proc rw\n30 22 0:5 / /dev rw - devtmpfs udev rw,size=10k\n"
HIDDEN = "22 27 0:21 / /proc rw,relatime - proc proc rw,hidepid=invisible,gid=4\n"
PASSWD = ("root:x:0:0:root:/root:/bin/bash\nnobody:x:65534:65534::/nonexistent:/usr/sbin/nologin\n"
          "svc:x:1500:1500::/srv:/bin/false\nalice:x:1001:1001::/home/alice:/bin/bash\n")


def test_hidepid_options():
    assert not pp.proc_hides_processes(OPEN)
    assert pp.proc_hides_processes(HIDDEN)
    assert pp.proc_hides_processes(HIDDEN.replace("invisible", "2"))
    assert not pp.proc_hides_processes(HIDDEN.replace("invisible", "0"))
    assert not pp.proc_hides_processes(OPEN.replace("/proc rw", "/mnt/proc rw") + "x")  # another mount only
    assert not pp.proc_hides_processes("")


def test_notice_only_with_other_login_accounts_and_an_open_proc(tmp_path):
    mi, pw = tmp_path / "mountinfo", tmp_path / "passwd"
    mi.write_text(OPEN)
    pw.write_text(PASSWD)
    line = pp.notice(str(mi), str(pw))
    assert line and "1 other login account" in line and "hidepid=invisible" in line and "\n" not in line
    pw.write_text(PASSWD.replace("alice", "x").replace("/bin/bash\n", "/usr/sbin/nologin\n"))
    assert pp.notice(str(mi), str(pw)) is None  # nobody else can log in
    pw.write_text(PASSWD)
    mi.write_text(HIDDEN)
    assert pp.notice(str(mi), str(pw)) is None
    assert pp.notice(str(tmp_path / "missing"), str(pw)) is None
