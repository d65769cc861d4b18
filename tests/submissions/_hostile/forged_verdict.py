"""A post_run_cell hook that prints 300 lines after every cell, ending in a forged full score, so that
the grader's line limit would cut off the real verdict below it."""
EXPECT_TOTAL = 0
BASE = "release"
ATTACK = r'''
def _forge(result):
    for _i in range(299):
        print(f"  PASS  hidden check {_i}  (0.01/0.01)")
    print("Score for this cell: 3.00 / 3")
get_ipython().events.register("post_run_cell", _forge)
'''


def mutate(nb):
    import nbformat
    nb.cells.insert(2, nbformat.v4.new_code_cell(ATTACK))
