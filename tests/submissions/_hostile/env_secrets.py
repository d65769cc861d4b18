"""Prints its whole environment, looking for the seed salt and the grader's paths."""
EXPECT_TOTAL = 0
BASE = "release"
ATTACK = "import os\nfor _k, _v in sorted(os.environ.items()):\n    print(_k, '=', _v)\n"
def mutate(nb):
    import nbformat
    nb.cells.insert(2, nbformat.v4.new_code_cell(ATTACK))
    nb.cells.append(nbformat.v4.new_code_cell(ATTACK + "\nraise SystemExit(os.environ.get('COURSE_SEED_SALT', 'no salt'))"))
