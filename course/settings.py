"""The grader's settings: every ``COURSE_*`` environment variable, with its one default and meaning.

``current()`` reads them when asked (never at import time), so a test or a command that sets one
sees it. The student package reads its own few (``course/student/``); variables that carry data
between the grader's own processes (``COURSE_KERNEL_ROOT``, ``COURSE_JUDGE``, ...) are not settings.
``python -m course.settings`` prints the table the README shows.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, fields

OFF = ("0", "off", "false", "no")


@dataclass(frozen=True)
class Settings:
    memory_limit_mb: int = 6144      # memory of one kernel or judge worker (RSS and tmpfs, whole tree)
    task_limit: int = 1024           # processes and threads of one sandbox
    file_limit_mb: int = 64          # largest file a sandboxed process may write
    cell_timeout: int = 60           # seconds for one notebook cell under autograde
    submission_timeout: int = 900    # seconds for a whole notebook under autograde
    judge_timeout: int = 900         # seconds for the hidden checks of one notebook
    load_timeout: int = 120          # seconds for the judge's worker to load a submission's code
    call_timeout: int = 60           # seconds for one probe call into the submission's code
    sandbox: str = "on"              # on (refuse to grade without bubblewrap), off, or auto
    sandbox_uids: str = "1800000000-1899999999"  # uids drawn from, one per sandbox, when grading as root (none an account)
    sandbox_hide: str = ""           # more folders to mask inside the sandbox (os.pathsep-separated)
    sandbox_tmp_mb: int = 1024       # the sandbox's private /tmp (a tmpfs: counts as memory)
    sandbox_shm_mb: int = 512        # the sandbox's private /dev/shm
    sandbox_template: bool = True    # as root: fork each sandbox from a template that imported torch once (0: bubblewrap each; docs/security.md)
    kernel_preload: str = "torch"    # modules a sandboxed kernel imports as it boots (comma-separated)
    spare_kernel: bool = True        # start the next notebook's kernel ahead (in the nbgrader runner)
    spare_zygote: bool = True        # start the next submission's judge worker ahead
    forkserver: bool = True          # fork judge workers from a preloaded zygote
    judge_server: bool = True        # fork judge sessions from a preloaded judge
    nbgrader_runner: bool = True     # run nbgrader commands in one long-lived process
    allow_cpu_grading: bool = False  # without CUDA, skip GPU checks (and say so) instead of failing them
    essential_policy: str = "off"    # off, or zero: a task's cell scores 0 when a check marked essential fails
    seed_salt: str = "0"             # the course's secret for per-student seeds (set it: see README)
    workers: int = 0                 # parallel graders (0: from the cores and GPUs)
    slots_per_gpu: int = 2           # graders sharing one GPU
    only: str = ""                   # limit build, round-trip and hostile tests to these topics


CHOICES = {"essential_policy": ("off", "zero")}  # settings that take one of a few words


def env_name(field: str) -> str:
    return "COURSE_" + field.upper()


def current(environ=None) -> Settings:
    """The settings as the environment gives them now (unset or empty: the default)."""
    environ = os.environ if environ is None else environ
    values = {}
    for f in fields(Settings):
        raw = environ.get(env_name(f.name), "").strip()
        if not raw:
            continue
        if f.type == "bool":
            values[f.name] = raw.lower() not in OFF
        elif f.type == "int":
            try:
                values[f.name] = int(raw)
            except ValueError:
                raise ValueError(f"{env_name(f.name)}={raw!r} is not a whole number") from None
        else:
            if f.name in CHOICES and raw.lower() not in CHOICES[f.name]:
                raise ValueError(f"{env_name(f.name)}={raw!r} is not one of {', '.join(CHOICES[f.name])}")
            values[f.name] = raw.lower() if f.name in CHOICES else raw
    return Settings(**values)


def table() -> str:
    """The settings as a markdown table (name, default, meaning), from this file's own comments."""
    import inspect
    notes = {}
    for line in inspect.getsource(Settings).splitlines():
        name, _, rest = line.strip().partition(":")
        if "#" in rest and name.isidentifier():
            notes[name] = rest.split("#", 1)[1].strip()
    rows = ["| variable | default | what it sets |", "|---|---|---|"]
    for f in fields(Settings):
        default = {True: "1", False: "0"}.get(f.default, f.default) if f.type == "bool" else f.default
        rows.append(f"| `{env_name(f.name)}` | `{default}` | {notes.get(f.name, '')} |")
    return "\n".join(rows)


if __name__ == "__main__":
    print(table())
