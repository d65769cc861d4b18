"""Held-out round 18, second pass (not counted): fold_conv_bn builds a new nn.Conv2d from the first entry of each
size tuple (kernel_size[0], stride[0], padding[0], dilation[0]), so a conv with a rectangular kernel, stride, padding
or dilation gets a square one; the text asks for "the same configuration as conv (channels, kernel, stride, padding,
dilation, groups, padding_mode)"."""

EXPECT = {"count_ops": "pass", "fold_conv_bn": "fail", "fuse_conv_bn": "pass", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {"fold_conv_bn_impl": '''def fold_conv_bn(conv: nn.Conv2d, bn: nn.BatchNorm2d) -> nn.Conv2d:
    """A new Conv2d equal to ``bn(conv(x))`` for an eval-mode ``bn``; ``conv`` and ``bn`` are unchanged."""
    w = conv.weight.detach()
    fused = nn.Conv2d(conv.in_channels, conv.out_channels, conv.kernel_size[0], stride=conv.stride[0],
                      padding=conv.padding[0], dilation=conv.dilation[0], groups=conv.groups, bias=True,
                      padding_mode=conv.padding_mode, device=w.device, dtype=w.dtype)
    b = conv.bias.detach() if conv.bias is not None else torch.zeros(conv.out_channels, dtype=w.dtype,
                                                                       device=w.device)
    gamma = bn.weight.detach() if bn.weight is not None else torch.ones_like(bn.running_var)
    beta = bn.bias.detach() if bn.bias is not None else torch.zeros_like(bn.running_mean)
    scale = gamma * torch.rsqrt(bn.running_var + bn.eps)
    with torch.no_grad():
        fused.weight.copy_(w * scale.reshape(-1, 1, 1, 1))
        fused.bias.copy_((b - bn.running_mean) * scale + beta)
    return fused
'''}
