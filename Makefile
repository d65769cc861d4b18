# Everything an instructor or grader runs. `make grade` and `make test` set themselves up.
PY     ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# The verdicts' seed in make test (fixed: CI judges the same draws each run; make seeds sweeps others)
VERDICT_SEED ?= 20261203

.PHONY: setup grade test test-cost test-suites test-fast release notebooks check-release sandbox student-lab mutants seeds verdict-order forgeable report clean

$(STAMP): requirements.txt pyproject.toml
	@command -v bwrap >/dev/null || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && \
	  (apt-get install -y -q bubblewrap >/dev/null 2>&1 || (apt-get update -q >/dev/null && apt-get install -y -q bubblewrap >/dev/null)) ; } || \
	  echo "NOTE: bubblewrap (bwrap) is not installed; grading will refuse to run until it is (apt-get install bubblewrap)"
	@# Debian's chromium drives the student JupyterLab test (Playwright; never a browser download).
	@command -v chromium >/dev/null || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && \
	  (apt-get install -y -q chromium >/dev/null 2>&1 || (apt-get update -q >/dev/null && apt-get install -y -q chromium >/dev/null)) ; } || \
	  echo "NOTE: chromium is not installed; the browser test of the student JupyterLab is skipped (apt-get install chromium)"
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -r requirements.txt
	@# jsonschema[format-nongpl] pulls in rfc3987-syntax, which builds ~35 parsers at import: about
	@# 2.8 s for every process that imports nbformat (each nbgrader command, each judge). No schema
	@# here uses its "iri" format, and jsonschema runs without it.
	$(BIN)/python -m pip uninstall -q -y rfc3987-syntax lark
	$(BIN)/python -m pip install -q --no-deps --no-build-isolation -e .
	touch $(STAMP)

## Also closes the course root to other accounts (chmod go-rwx): solutions, hidden checks, gradebook, submissions.
setup: $(STAMP)
	$(BIN)/python -m course.grading.class_run.course_root $(CURDIR)

## The exchange a class shares (README, "Running a class"), made by the course: make exchange EXCHANGE=/srv/nbgrader/exchange
.PHONY: exchange student-env
exchange:
	$(BIN)/python -m course.grading.intake.exchange_root $${EXCHANGE:-$${NBGRADER_EXCHANGE:-/srv/nbgrader/exchange}}

## The students' tools on a shared machine, built once from release/requirements.txt into a folder every
## account can read: make student-env DEST=/opt/course-student [CPU=1: PyTorch's CPU wheels] [STUDENT_PY=python3.11]
student-env:
	$(if $(wildcard $(BIN)/python),$(BIN)/python,$(PY)) -m course.authoring.student_env $${DEST:?set DEST=<folder>, e.g. DEST=/opt/course-student} \
		$${CPU:+--cpu} $${STUDENT_PY:+--python $$STUDENT_PY}

## The main job: build the release, autograde the bundled examples, feedback, CSV, score table.
## A rerun skips what the gradebook holds unchanged; FORCE=1 grades everything again.
grade: $(STAMP)
	$(BIN)/python -m course.grading.pipeline $${FORCE:+--force}

## The instructor test suite (what CI runs). Known-wrong examples are judged under the run's seed (fresh each
## run); `make test-suites` judges each under 2 seeds, `make seeds` under N.
## Each test's CPU and wall seconds go to gradebook/test-cost.jsonl (suite_cost's plugin, under 1 % of the run's CPU);
## `make test-cost-table` then writes that run's per-file table into docs/performance.md.
COST_LOG := gradebook/test-cost.jsonl
test: $(STAMP)
	@rm -f $(COST_LOG) $(COST_LOG:.jsonl=.note); mkdir -p gradebook
	@began=$$(date -u '+%Y-%m-%d %H:%M'); t0=$$(date +%s); \
	COURSE_TEST_COST=$(CURDIR)/$(COST_LOG) COURSE_VERDICT_SEEDS=1 COURSE_VERDICT_SEED=$${COURSE_VERDICT_SEED:-$(VERDICT_SEED)} \
		$(BIN)/python -m pytest tests -q -n 2 --durations=25 \
		--ignore-glob='tests/[0-9][0-9]-*'; rc=$$?; \
	echo "make test, $$began-$$(date -u '+%H:%M') UTC ($$(( ($$(date +%s) - t0) / 60 )) min of pytest, exit $$rc), $$(nproc) cores, load $$(cut -d' ' -f1 /proc/loadavg) at the end, $$(ls -d source/[0-9][0-9]-[0-9][0-9] | wc -l) topics in source/:" > $(COST_LOG:.jsonl=.note); \
	exit $$rc

## The per-file table of the last `make test` (or `make test-cost`) run, written into docs/performance.md.
.PHONY: test-cost-table
test-cost-table: $(STAMP)
	$(BIN)/python -m course.authoring.suite_cost $(COST_LOG) --write docs/performance.md \
		--note "$$(cat $(COST_LOG:.jsonl=.note) 2>/dev/null || echo 'a run of unknown date (no gradebook/test-cost.note):')"

## What make test costs, per test file: CPU seconds (each test's process and everything it started, so a busy
## machine does not inflate them) and wall seconds, and the topics covered; written into docs/performance.md
## from the run. make test-cost [TESTS="tests/test_round_trip.py ..."] [ONLY=15-01,15-02]; default: make test's run
.PHONY: test-cost
test-cost: $(STAMP)
	rm -f $(COST_LOG) $(COST_LOG:.jsonl=.note)
	env $${ONLY:+COURSE_ONLY=$$ONLY} COURSE_TEST_COST=$(CURDIR)/$(COST_LOG) COURSE_VERDICT_SEEDS=1 \
		$(BIN)/python -m pytest $${TESTS:-tests} --ignore-glob='tests/[0-9][0-9]-*' -q -n 2 --durations=25; rc=$$?; \
	$(BIN)/python -m course.authoring.suite_cost $(COST_LOG) --write docs/performance.md \
		--note "make test-cost TESTS=\"$${TESTS:-(make test)}\" ONLY=\"$${ONLY:-(all)}\", $$(date -u '+%Y-%m-%d %H:%M UTC'), $$(nproc) cores, load $$(cut -d' ' -f1 /proc/loadavg) at the end (pytest exit $$rc):"; \
	exit $$rc

## Each hidden suite run directly against its reference (the round trips in `make test` already grade the
## reference through nbgrader with the same suites; this reports every check by name), every known-wrong
## example under 2 seeds, the tiny bench, and a real regrade into a second gradebook.
test-suites: $(STAMP)
	$(BIN)/python -m pytest tests/[0-9][0-9]-* -q -n 2
	COURSE_VERDICT_SEEDS=2 COURSE_VERDICT_GENERIC=all $(BIN)/python -m pytest tests/test_submissions.py -q -n 2 -k verdicts
	COURSE_TEST_BENCH=1 $(BIN)/python -m pytest tests/test_bench.py -q
	COURSE_TEST_REAL_RESUME=1 $(BIN)/python -m pytest tests/test_resume_truth.py -q -k real

notebooks: $(STAMP)
	$(BIN)/python -m course.authoring.build notebooks

release: $(STAMP)
	$(BIN)/python -m course.authoring.build notebooks
	$(BIN)/python -m course.authoring.build release

sandbox: $(STAMP)
	$(BIN)/python -c "from course import sandbox; r = sandbox.probe(); lo, hi = sandbox.uid_range(); print(('sandbox OK: each sandbox a uid of its own in %d-%d, seccomp filter on' % (lo, hi) if sandbox.separate_account() else 'sandbox OK: this account in a user namespace per sandbox, seccomp filter on') if r is None else 'sandbox NOT available: ' + r)"
	$(BIN)/python -c "from course.sandbox import cgroup; r = cgroup.available(); print('cgroup limits OK' if r is None else 'cgroup limits NOT enforced (' + r + '): memory and tasks are polled instead')"
	$(BIN)/python -c "from course.sandbox import cgroup; r = cgroup.cpu_available(); print('CPU limits OK: each grading worker\'s sandboxes share a CPU quota, and a time-out counts their CPU time' if r is None else 'CPU limits NOT enforced (' + r + '): a busy submission can slow the one graded beside it; a time-out while the machine was busy is graded again alone')"
	$(BIN)/python -c "from course.sandbox import overlay; print('own inodes OK: each sandbox its own overlay of the read-only trees and its own device nodes (no lock shared by two sandboxes)' if overlay.usable() else 'own inodes NOT available (grading as a user, or no unshare/overlayfs for root here): locks on the read-only files every sandbox sees are shared, a channel between two live sandboxes (docs/security.md)')"

## A student's JupyterLab, set up from release/ alone, on 127.0.0.1 (PORT=8890).
student-lab: $(STAMP)
	$(BIN)/python -m course.authoring.studentlab --port $${PORT:-8890}

## Every topic's blank notebook run in the student's JupyterLab (the browser test's lab, demos on): the only
## error allowed is the one line "X is not written yet" of an unfinished exercise, no traceback; one screenshot
## per topic in gradebook/screenshots/blank-<id>.png. Not part of make test (about 4 min on 2 cores):
## make test-browser-topics [ID=15-09]
.PHONY: test-browser-topics
test-browser-topics: $(STAMP)
	COURSE_TEST_BROWSER_TOPICS=1 $(BIN)/python -m pytest tests/test_student_browser.py -q -s --durations=0 \
		-k "blank_run_in_the_browser$${ID:+ and $$ID}"

## Mutation score of a hidden suite (a benchmark, not CI): make mutants ID=15-01 [WRITE=1] [MISTAKES=1: only the mistake-shaped ones]
mutants: $(STAMP)
	$(BIN)/python -m course.authoring.mutants $${ID:?set ID=<topic>, e.g. ID=15-01} $${WRITE:+--write} $${MISTAKES:+--mistakes}

## Known-wrong examples judged under N seeds each (a benchmark, not CI): make seeds ID=15-05 N=30 [ONLY=wrong_tie]
seeds: $(STAMP)
	COURSE_VERDICT_SEEDS=$${N:-20} COURSE_VERDICT_ONLY=$${ONLY:-} $(BIN)/python -m pytest tests/test_submissions.py \
		-q --timeout 0 -k "verdicts and $${ID:?set ID=<topic>, e.g. ID=15-05}"

## Which check catches each known-wrong example, at make test's verdict seed, into tests/submissions/<id>/verdict_order.json
## (make test runs those checks first; the verdicts are the same without it, only slower): make verdict-order [ID=15-01]
verdict-order: $(STAMP)
	COURSE_VERDICT_RECORD_ORDER=1 COURSE_VERDICT_SEEDS=1 COURSE_VERDICT_SEED=$${COURSE_VERDICT_SEED:-$(VERDICT_SEED)} \
		$(BIN)/python -m pytest tests/test_submissions.py -q -n 2 -p no:cacheprovider -k "verdicts$${ID:+ and $$ID}"

## What a forger that replays another student's replies earns, per assignment, through the real pipeline
## (a benchmark, not CI; about a minute a topic): make forgeable [ID=15-01] [WRITE=1]
forgeable: $(STAMP)
	$(BIN)/python -m course.authoring.forgeable $${ID:-} $${WRITE:+--write}

## The class report from the gradebook and the judge's records: gradebook/report/index.html [DB=<gradebook URL>]
# A gradebook password typed as make's DB=... stays in make's own command line for the whole run, where every
# account on the machine can read it (/proc/<pid>/cmdline): refused; ~/.pgpass or PGPASSWORD hold it instead.
NO_DB_PASSWORD = @if [ "$(origin DB)" = "command line" ]; then case "$$DB" in *://*:*@*|*[?\&]password=*) \
	echo "make: DB=... holds the gradebook's password, which make's command line shows to every account on this machine; put it in ~/.pgpass (or export PGPASSWORD) and give DB without it" >&2; exit 2;; esac; fi

report: $(STAMP)
	$(NO_DB_PASSWORD)
	$(BIN)/python -m course.grading.report $${DB:+--db "$$DB"}

## Grade a class on a Slurm cluster (README, "Grading on a Slurm cluster"): generate here, then an array
## of TASKS jobs over shards of students and a closing job (feedback, export, report):
## make grade-cluster TASKS=8 DB=postgresql+psycopg2://user@host:5432/gradebook [GPUS=1] [PARTITION=gpu] [DRY=1]
.PHONY: grade-cluster test-cluster
grade-cluster: $(STAMP)
	$(NO_DB_PASSWORD)
	$(BIN)/python -m course.grading.cluster submit --tasks $${TASKS:-2} $${DB:+--db "$$DB"} \
		$${GPUS:+--gpus-per-task $$GPUS} $${PARTITION:+--partition $$PARTITION} $${DRY:+--dry-run}

## The Slurm + PostgreSQL test, for real (installs slurmctld, slurmd, munge and postgresql with apt-get as root,
## starts them in a temporary folder, grades a class as a 2-task array): not part of make test.
test-cluster: $(STAMP)
	COURSE_TEST_CLUSTER=1 $(BIN)/python -m pytest tests/test_cluster.py -q -s --durations=5

## Every GPU-marked hidden check on a GPU machine, against each reference and the EXPECT_GPU examples; one
## table (docs/gpu.md). Not part of make test. It sets nothing up: .venv's Python where there is one, else
## python3 (a lent GPU machine's own PyTorch), with .whl/gpu-check/ from `make gpu-wheels` for what it lacks.
## make test-gpu [ARGS="--topic 15-07 --seed N"]; on a machine without CUDA: ARGS=--standin (CPU twins)
.PHONY: test-gpu gpu-wheels
test-gpu:
	$(if $(wildcard $(BIN)/python),$(BIN)/python,$(PY)) -m course.authoring.gpu_check $${ARGS:-}

gpu-wheels: $(STAMP)
	$(BIN)/python -m course.authoring.gpu_check --download-wheels

## The grading benchmark (docs/performance.md, "Grading speed"): a 60-submission class built from the example submissions, graded
## on 1 and 2 workers, against the cold-kernel floor and plain nbgrader; one table. Not a test: tens of
## minutes on 2 cores. make bench [ARGS="--assignment 15-01 --per-topic 2"]; ARGS=--profile: phase by phase
.PHONY: bench
bench: $(STAMP)
	$(BIN)/python -m course.authoring.bench $${ARGS:-}

clean:
	rm -rf autograded/*/ gradebook/*/ gradebook/*.db gradebook/*.csv
