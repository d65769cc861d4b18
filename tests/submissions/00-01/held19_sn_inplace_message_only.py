"""Round 19: a node counts as stale only when the error of its saved attribute speaks of an in-place
operation; a saved tensor freed by an earlier backward (another RuntimeError) is skipped (the text: stale also
when one was freed by an earlier backward without retain_graph=True)."""
from course.grading.class_run.submissions import edited

EXPECT = {"stale_nodes": "fail"}
CELLS = {"stale_nodes_impl": edited("00-01", "stale_nodes_impl", (
    '''                except RuntimeError:
                    stale.append(type(node).__name__)
                    break''',
    '''                except RuntimeError as err:
                    if "inplace" in str(err):
                        stale.append(type(node).__name__)
                        break'''))}
