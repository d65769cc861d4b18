"""Widget comm messages carrying 10 MiB of state (nbclient stores widget state in the notebook's
metadata), one an Output widget that would capture the cell's output past the output caps, one an
HTML widget with a script, shown with a widget view."""
EXPECT_TOTAL = 0
BASE = "release"
ATTACK = r'''
from comm import create_comm
from IPython.display import display
_blob = "w" * (10 * 2**20)
_out = create_comm(target_name="jupyter.widget", data={"buffer_paths": [], "state": {
    "_model_module": "@jupyter-widgets/output", "_model_name": "OutputModel", "_model_module_version": "1.0.0",
    "outputs": [], "blob": _blob}})
_html = create_comm(target_name="jupyter.widget", data={"buffer_paths": [], "state": {
    "_model_module": "@jupyter-widgets/controls", "_model_name": "HTMLModel", "_model_module_version": "2.0.0",
    "value": "<script>window.__pwned = ['widget']</script>", "blob": _blob}})
_out.send({"method": "update", "buffer_paths": [], "state": {"msg_id": get_ipython().parent_header["header"]["msg_id"]}})
for _ in range(3):
    print("z" * 1_000_000)
display({"application/vnd.jupyter.widget-view+json": {"model_id": _html.comm_id, "version_major": 2,
                                                       "version_minor": 0}}, raw=True)
'''


def mutate(nb):
    import nbformat
    nb.cells.insert(2, nbformat.v4.new_code_cell(ATTACK))
