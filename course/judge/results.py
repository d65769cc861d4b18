"""What a judge run found: one typed record, written once (by the pytest plugin, as JSON) and read
everywhere (autograde's verdict cells, the judge records of the class report, ``run_hidden`` in this
repository, the example verdicts, the forgeable-share tool)."""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

PASSED, FAILED, SKIPPED = "passed", "failed", "skipped"
# How a GPU-marked check without CUDA ends (course.judge.pytest_plugin): failed under grading, else skipped.
# The class report shows such checks apart: they could not run here, whatever the student wrote.
NO_GPU_FAILED = "this check needs a CUDA GPU and none is visible"
NO_GPU_SKIPPED = "needs a CUDA GPU"


@dataclass(frozen=True)
class Check:
    """One hidden check (a pytest item) judged against one notebook under one seed."""
    nodeid: str
    name: str
    title: str                  # the check's one-line description (its docstring), shown in feedback
    task: str | None            # the task its points belong to (pytest.mark.task)
    status: str                 # PASSED, FAILED or SKIPPED
    assignment: str = ""
    message: str = ""           # why it failed or was skipped, in terms of the student's function
    notebook: str | None = None
    seed: int | None = None
    weight: float = 1.0         # its share of the task's points, relative to the task's other checks
    seconds: float = 0.0
    essential: bool = False     # marked essential (pytest.mark.essential): see COURSE_ESSENTIAL_POLICY
    penalty: bool = False       # marked penalty (pytest.mark.penalty): earns nothing passed, costs its share failed

    def counts(self) -> bool:
        """Whether the check is part of its cell's score (run, and not a passed penalty check)."""
        return not self.skipped and not (self.penalty and self.passed)

    @property
    def passed(self) -> bool:
        return self.status == PASSED

    @property
    def failed(self) -> bool:
        return self.status == FAILED

    @property
    def skipped(self) -> bool:
        return self.status == SKIPPED


@dataclass
class Results:
    """A judge session's checks, its seed, what happened to the submission's worker (events), and the
    grading error that kept the checks from running, if any."""
    checks: list[Check] = field(default_factory=list)
    seed: int | None = None
    events: list[str] = field(default_factory=list)
    error: str | None = None
    judge_seconds: float | None = None  # wall-clock seconds of the whole judge run, where measured
    starved: list[str] = field(default_factory=list)  # time-outs while the machine was overloaded

    @classmethod
    def failure(cls, error: str) -> "Results":
        return cls(error=error)

    def for_tasks(self, tasks) -> list[Check]:
        return [c for c in self.checks if c.task in tasks]

    def for_notebook(self, notebook: str) -> list[Check]:
        return [c for c in self.checks if c.notebook == notebook]

    # ------------------------------------------------------------------ JSON
    def to_dict(self) -> dict:
        d = {"seed": self.seed, "events": list(self.events), "checks": [asdict(c) for c in self.checks]}
        if self.error:
            d["error"] = self.error
        if self.judge_seconds is not None:
            d["judge_seconds"] = self.judge_seconds
        if self.starved:
            d["starved"] = list(self.starved)
        return d

    def dumps(self) -> str:
        return json.dumps(self.to_dict(), indent=1)

    @classmethod
    def from_dict(cls, d: dict) -> "Results":
        known = {f.name for f in fields(Check)}
        return cls(checks=[Check(**{k: v for k, v in c.items() if k in known}) for c in d.get("checks", [])],
                   seed=d.get("seed"), events=list(d.get("events", [])), error=d.get("error") or None,
                   judge_seconds=d.get("judge_seconds"), starved=list(d.get("starved", [])))

    @classmethod
    def load(cls, path: str | Path) -> "Results":
        return cls.from_dict(json.loads(Path(path).read_text()))
