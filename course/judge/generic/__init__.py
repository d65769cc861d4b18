"""Hidden checks every topic's suite shares, driven by the release notebook rather than by one topic's text:
today the skeleton's signatures (``signatures``: what each task's def and class lines are, and the comparison
with a submission's)."""
