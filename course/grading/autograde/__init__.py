"""What ``nbgrader autograde`` does to one notebook: its sandboxed kernel (``kernel``, one started
ahead in ``spare_kernel``), the HTML policy for what a student wrote (``safe_html``) and the
preprocessors, one a file (``preprocessors/``).

May import ``records/``, the judge, the sandbox and the core; never the class run or the intake.
"""
