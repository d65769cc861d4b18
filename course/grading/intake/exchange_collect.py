"""``nbgrader collect`` where a submission belongs to the account that made it.

nbgrader's exchange names the student by the inbound folder's name (``<student>+<assignment>+<time>``),
which the submitting student chooses (``nbgrader submit --student=bob``, or a folder made by hand in the
writable inbound folder, with any time), and only warns when the folder's owner is someone else. So one
student could replace another's submission with a later "attempt". Here such a folder is refused with
one line, and the named student's own submissions are collected as if it were not there.
``ExchangeCollect.check_owner = False`` (nbgrader's setting, for hubs where every student is one account)
collects as nbgrader does.
"""
from __future__ import annotations

import os
import pwd
import stat

from nbgrader.exchange.default.collect import ExchangeCollect

NOT_OWNED = "\0not-owned"


def owner_name(path: str) -> str | None:
    """The account that owns ``path`` (a real folder, not a link), or None."""
    try:
        st = os.lstat(path)
        return pwd.getpwuid(st.st_uid).pw_name if stat.S_ISDIR(st.st_mode) else None
    except (OSError, KeyError):
        return None


class OwnedCollect(ExchangeCollect):
    def _path_to_record(self, path):
        rec = super()._path_to_record(path)
        if self.check_owner and owner_name(path) != rec["username"]:
            rec["username"] += NOT_OWNED + rec["filename"]  # a group of its own, dropped below
        return rec

    def init_src(self):
        super().init_src()
        kept = []
        for rec in self.src_records:
            if NOT_OWNED in rec["username"]:
                named = rec["username"].split(NOT_OWNED, 1)[0]
                self.log.error(f"refused inbound/{rec['filename']}: it names student {named!r} but was made by "
                               f"account {owner_name(os.path.join(self.inbound_path, rec['filename']))!r} "
                               f"(a student submits only as themselves; where all students share one account, "
                               f"set c.ExchangeCollect.check_owner = False)")
            else:
                kept.append(rec)
        self.src_records = kept
