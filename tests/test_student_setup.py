"""The student's install lines (release/README.md, and the README's "For students" block that repeats them).

The CPU-only line is run as written against two local package indexes that stand in for PyPI and
PyTorch's CPU index (the same pinned versions, the CPU ones tagged +cpu, as PyTorch publishes them):
with requirements.txt's pins, pip must take PyTorch's CPU builds (PyPI's sort below them).
(The venv lines are run as written by tests/test_student_release.py.)
"""
import json
import os
import re
import shlex
import subprocess
import sys
import zipfile
from pathlib import Path

from course import RELEASE_DIR, REPO_ROOT

CPU_INDEX = "https://download.pytorch.org/whl/cpu"


def commands(markdown: str) -> list[str]:
    """Every command line of the markdown's bash blocks, comments dropped, `a && b` as two."""
    out = []
    for block in re.findall(r"```bash\n(.*?)```", markdown, flags=re.S):
        for line in block.splitlines():
            line = line.split(" #", 1)[0].strip()
            if line and not line.startswith("#"):
                out += [part.strip() for part in line.split("&&")]
    return out


def fake_wheel(index: Path, name: str, version: str) -> None:
    """A metadata-only wheel in a PEP 503 folder index."""
    folder = index / name
    folder.mkdir(parents=True, exist_ok=True)
    info = f"{name}-{version}.dist-info"
    files = {f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
             f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}
    wheel = f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(folder / wheel, "w") as z:
        for path, text in files.items():
            z.writestr(path, text)
        z.writestr(f"{info}/RECORD", "".join(f"{p},,\n" for p in [*files, f"{info}/RECORD"]))
    (folder / "index.html").write_text(f'<a href="{wheel}">{wheel}</a>\n')


def resolve(line: str, tmp: Path) -> dict:
    """What pip would install for ``line`` (a README pip line, run in ``tmp``): {name: version}."""
    argv = shlex.split(line.replace(CPU_INDEX, (tmp / "cpu").as_uri()))
    assert argv[:3] == ["python", "-m", "pip"], line
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    env["PIP_CONFIG_FILE"] = os.devnull
    r = subprocess.run([sys.executable, *argv[1:], "--index-url", (tmp / "pypi").as_uri(), "--dry-run",
                        "--ignore-installed", "--quiet", "--report", str(tmp / "report.json")],
                       cwd=tmp, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    report = json.loads((tmp / "report.json").read_text())
    return {i["metadata"]["name"]: i["metadata"]["version"] for i in report["install"]}


def test_cpu_only_line_takes_pytorchs_cpu_wheels(tmp_path):
    readme = (RELEASE_DIR / "README.md").read_text()
    cmds = commands(readme)
    cpu = [c for c in cmds if CPU_INDEX in c]
    assert len(cpu) == 1, f"release/README.md offers no CPU-only install line ({CPU_INDEX}): {cmds}"
    default = [c for c in cmds if "pip install" in c and c not in cpu]
    assert len(default) == 1 and "-r requirements.txt" in default[0] and "-r requirements.txt" in cpu[0], cmds
    pins = dict(re.findall(r"^(torch|torchvision)==(\S+)$", (RELEASE_DIR / "requirements.txt").read_text(), re.M))
    assert set(pins) == {"torch", "torchvision"}, pins
    for name, version in pins.items():
        fake_wheel(tmp_path / "pypi", name, version)
        fake_wheel(tmp_path / "cpu", name, f"{version}+cpu")
    (tmp_path / "requirements.txt").write_text("".join(f"{n}=={v}\n" for n, v in pins.items()))
    assert resolve(cpu[0], tmp_path) == {n: f"{v}+cpu" for n, v in pins.items()}


def test_readme_student_block_repeats_the_release_readme():
    text = (REPO_ROOT / "README.md").read_text()
    block = text.split("## For students", 1)[1].split("\n## ", 1)[0]
    release = commands((RELEASE_DIR / "README.md").read_text())
    mine = commands(block)
    assert mine and all(c in release for c in mine), f"README's student commands {mine} are not release/README.md's"
    assert "python3 -m venv" in block and CPU_INDEX in block, block
