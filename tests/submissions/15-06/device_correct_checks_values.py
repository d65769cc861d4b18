"""Correct, written unusually: fold_conv_bn first checks the BatchNorm's statistics (a Python `if` on
`(running_var < 0).any()`, which reads values) and builds the folded conv with device= and dtype= from conv's
weight. Reading values is allowed: the grader's GPU stand-in must not reject it."""
EXPECT = {'fold_conv_bn': 'pass'}
CELLS = {"fold_conv_bn_impl": '''
def fold_conv_bn(conv: nn.Conv2d, bn: nn.BatchNorm2d) -> nn.Conv2d:
    """A new Conv2d equal to ``bn(conv(x))`` for an eval-mode ``bn``; ``conv`` and ``bn`` are unchanged."""
    if bool((bn.running_var < 0).any()):
        raise ValueError("a BatchNorm2d with a negative running variance cannot be folded")
    w = conv.weight.detach()
    new = nn.Conv2d(conv.in_channels, conv.out_channels, conv.kernel_size, stride=conv.stride,
                    padding=conv.padding, dilation=conv.dilation, groups=conv.groups, bias=True,
                    padding_mode=conv.padding_mode, dtype=w.dtype, device=w.device)
    var = bn.running_var.detach()
    gamma = bn.weight.detach() if bn.weight is not None else torch.ones_like(var)
    beta = bn.bias.detach() if bn.bias is not None else torch.zeros_like(var)
    b = conv.bias.detach() if conv.bias is not None else torch.zeros_like(var)
    s = gamma / torch.sqrt(var + bn.eps)
    with torch.no_grad():
        new.weight.copy_((w * s.reshape(-1, 1, 1, 1)).to(w.dtype))
        new.bias.copy_(((b - bn.running_mean.detach()) * s + beta).to(w.dtype))
    return new
'''}
