"""Wrong (held-out round 2): computes the folded weight and bias from conv's and bn's tensors as they are and
keeps the promoted dtype: a float32 conv with a float64 BatchNorm gets float64 parameters ("parameters in
the same dtype as conv's weight")."""
EXPECT = {'fold_conv_bn': 'fail'}
CELLS = {"fold_conv_bn_impl": '''
def fold_conv_bn(conv: nn.Conv2d, bn: nn.BatchNorm2d) -> nn.Conv2d:
    """A new Conv2d equal to ``bn(conv(x))`` for an eval-mode ``bn``; ``conv`` and ``bn`` are unchanged."""
    w = conv.weight.detach()
    mean, var = bn.running_mean.detach(), bn.running_var.detach()
    gamma = bn.weight.detach() if bn.weight is not None else torch.ones_like(var)
    beta = bn.bias.detach() if bn.bias is not None else torch.zeros_like(var)
    b = conv.bias.detach() if conv.bias is not None else torch.zeros_like(mean)
    s = gamma / torch.sqrt(var + bn.eps)
    new = nn.Conv2d(conv.in_channels, conv.out_channels, conv.kernel_size, stride=conv.stride,
                    padding=conv.padding, dilation=conv.dilation, groups=conv.groups, bias=True,
                    padding_mode=conv.padding_mode, device=w.device, dtype=w.dtype)
    new.weight = nn.Parameter(w * s.reshape(-1, 1, 1, 1))
    new.bias = nn.Parameter(s * (b - mean) + beta)
    return new
'''}
