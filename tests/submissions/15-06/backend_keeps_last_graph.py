"""The recording backend overwrites the list with the latest graph, so after a graph break only the second
graph is left; it also prints nothing."""
EXPECT = {"recording_backend": "fail"}

CELLS = {"recording_backend_impl": '''
def make_recording_backend():
    graphs = []

    def backend(gm, example_inputs):
        graphs[:] = [gm]
        return gm.forward

    return backend, graphs
'''}
