"""Wrong (held-out round 2): builds the new Conv2d with dtype= but without device= and copies the folded
values into it, so a conv on a GPU gives a folded conv on the CPU that cannot run on the conv's inputs
("returns a new nn.Conv2d computing bn(conv(x))")."""
EXPECT = {'fold_conv_bn': 'fail'}
CELLS = {"fold_conv_bn_impl": '''
def fold_conv_bn(conv: nn.Conv2d, bn: nn.BatchNorm2d) -> nn.Conv2d:
    """A new Conv2d equal to ``bn(conv(x))`` for an eval-mode ``bn``; ``conv`` and ``bn`` are unchanged."""
    w = conv.weight.detach()
    dt, dev = w.dtype, w.device
    f64 = dict(dtype=torch.float64, device=dev)
    mean = bn.running_mean.detach().to(**f64)
    var = bn.running_var.detach().to(**f64)
    gamma = bn.weight.detach().to(**f64) if bn.weight is not None else torch.ones_like(var)
    beta = bn.bias.detach().to(**f64) if bn.bias is not None else torch.zeros_like(var)
    b = conv.bias.detach().to(**f64) if conv.bias is not None else torch.zeros_like(mean)
    s = gamma / torch.sqrt(var + bn.eps)
    new = nn.Conv2d(conv.in_channels, conv.out_channels, conv.kernel_size, stride=conv.stride,
                    padding=conv.padding, dilation=conv.dilation, groups=conv.groups, bias=True,
                    padding_mode=conv.padding_mode, dtype=dt)
    with torch.no_grad():
        new.weight.copy_(w.to(**f64) * s.reshape(-1, 1, 1, 1))
        new.bias.copy_(s * (b - mean) + beta)
    return new
'''}
