"""Known-wrong implementations, one per task (tasks differ, so they can share a notebook).

- fold bias none and groups: fold_conv_bn rebuilds the conv with nn.Conv2d(in, out, k, stride, padding): groups and dilation are lost, and a conv without bias crashes (conv.bias is None).
- backend keeps last graph: The recording backend overwrites the list with the latest graph, so after a graph break only the second graph is left; it also prints nothing.
"""
# fold_conv_bn 'fail', not 'zero': it does its own arithmetic, which test_arithmetic_written_not_called rightly accepts
EXPECT = {'fold_conv_bn': 'fail', 'recording_backend': 'fail'}

CELLS = {
    'fold_conv_bn_impl': '''
def fold_conv_bn(conv: nn.Conv2d, bn: nn.BatchNorm2d) -> nn.Conv2d:
    fused = nn.Conv2d(conv.in_channels, conv.out_channels, conv.kernel_size, conv.stride, conv.padding,
                      bias=True).to(conv.weight.dtype)
    scale = bn.weight / torch.sqrt(bn.running_var + bn.eps)
    with torch.no_grad():
        fused.weight.copy_(conv.weight * scale.reshape(-1, 1, 1, 1))
        fused.bias.copy_((conv.bias - bn.running_mean) * scale + bn.bias)
    return fused
''',
    'recording_backend_impl': '''
def make_recording_backend():
    graphs = []

    def backend(gm, example_inputs):
        graphs[:] = [gm]
        return gm.forward

    return backend, graphs
''',
}
