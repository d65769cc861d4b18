"""Real student accounts for the tests that need two people on one machine (the exchange, the shared machine):
made with useradd, each with a private home in a scratch folder every account can enter, removed afterwards."""
from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest


@contextlib.contextmanager
def student_accounts(prefix: str, roles: tuple[str, ...]):
    """Yield (scratch folder, {role: account name}); skip the test where the process is not root."""
    if os.geteuid() != 0:
        pytest.skip("needs root: makes student accounts with useradd")
    base = Path(tempfile.mkdtemp(prefix=f"{prefix}-", dir="/tmp"))
    base.chmod(0o755)
    tag = f"{os.getpid() % 100000}"
    names = {role: f"{role[:5]}{tag}" for role in roles}
    made = []
    try:
        for name in names.values():
            home = base / "home" / name
            subprocess.run(["useradd", "--no-create-home", "--home-dir", str(home), "--shell", "/bin/sh",
                            "--user-group", name], check=True, capture_output=True)
            made.append(name)
            home.mkdir(parents=True)
            shutil.chown(home, name, name)
            home.chmod(0o700)
        yield base, names
    finally:
        for name in made:
            subprocess.run(["userdel", name], capture_output=True)
        shutil.rmtree(base, ignore_errors=True)
