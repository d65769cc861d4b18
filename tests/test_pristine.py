"""course.judge.pristine: the clean copy a worker forks before the submission's code runs, used by
checks that need a fresh interpreter (15-05 loads a saved model where no class is available)."""
import subprocess
import sys
import textwrap

from course import REPO_ROOT

SCRIPT = textwrap.dedent(r'''
    import json, os, sys, tempfile
    sys.path.insert(0, sys.argv[1])
    from course.judge import pristine
    pristine.start()                      # before the "submission" defines anything

    class StudentNet:                     # what the submission defines afterwards
        pass
    sys.modules["student_module"] = type(sys)("student_module")

    folder = tempfile.mkdtemp()
    probe = ("import sys, __main__\n"
             "print('argv', sys.argv[1:])\n"
             "print('sees class', hasattr(__main__, 'StudentNet'), 'student_module' in sys.modules)\n"
             "sys.exit(int(sys.argv[1]))\n")
    out = {"ok": pristine.run_fresh(probe, ["3"], folder, 30),
           "raises": pristine.run_fresh("raise ValueError('boom')", [], folder, 30),
           "hangs": pristine.run_fresh("while True: pass", [], folder, 1),
           "after": pristine.run_fresh("print('still serving')", [], folder, 30)}
    pristine._CHANNEL = None              # no clean copy: a real interpreter instead
    out["fallback"] = pristine.run_fresh(probe, ["0"], folder, 60)
    print(json.dumps(out))
''')


def test_fresh_interpreter_has_nothing_of_the_submission():
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(REPO_ROOT)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    import json
    out = json.loads(done.stdout.strip().splitlines()[-1])
    code, text = out["ok"]
    assert code == 3 and "argv ['3']" in text and "sees class False False" in text, out["ok"]
    code, text = out["raises"]
    assert code == 1 and "ValueError: boom" in text, out["raises"]
    assert out["hangs"][0] is None, out["hangs"]
    assert out["after"] == [0, "still serving\n"], out["after"]
    code, text = out["fallback"]
    assert code == 0 and "sees class False False" in text, out["fallback"]


def test_the_clean_copy_does_not_hold_the_judges_protocol():
    script = textwrap.dedent(r'''
        import os, sys
        sys.path.insert(0, sys.argv[1])
        from course.judge import pristine
        r, w = os.pipe()                  # stands for the worker's pipe back to the judge
        pristine.start(close=(w,))
        os.close(w)                       # the worker's own end gone: the reader must see the end now
        import select
        ready, _, _ = select.select([r], [], [], 10)
        print("eof" if ready and os.read(r, 1) == b"" else "held open")
    ''')
    done = subprocess.run([sys.executable, "-c", script, str(REPO_ROOT)], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip().endswith("eof"), done.stdout + done.stderr
