"""Held-out round 21, a correct answer written another way: fold_conv_bn builds a fresh nn.Conv2d from conv's
configuration (device= and dtype= from conv's weight), computes the scale with rsqrt in the wider of conv's and bn's
dtypes, scales the weight with torch.einsum over the output channel and copies the results in under no_grad."""

EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "pass", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {"fold_conv_bn_impl": '''def fold_conv_bn(conv: nn.Conv2d, bn: nn.BatchNorm2d) -> nn.Conv2d:
    """A new Conv2d equal to ``bn(conv(x))`` for an eval-mode ``bn``; ``conv`` and ``bn`` are unchanged."""
    w = conv.weight
    wide = torch.promote_types(w.dtype, bn.running_var.dtype)
    out = nn.Conv2d(conv.in_channels, conv.out_channels, conv.kernel_size, stride=conv.stride,
                    padding=conv.padding, dilation=conv.dilation, groups=conv.groups, bias=True,
                    padding_mode=conv.padding_mode, device=w.device, dtype=w.dtype)
    with torch.no_grad():
        inv_std = bn.running_var.to(wide).add(bn.eps).rsqrt()
        g = bn.weight.to(wide) if bn.weight is not None else 1.0
        s = inv_std * g
        b0 = conv.bias.to(wide) if conv.bias is not None else 0.0
        shift = bn.bias.to(wide) if bn.bias is not None else 0.0
        out.weight.copy_(torch.einsum("oihw,o->oihw", w.to(wide), s))
        out.bias.copy_((b0 - bn.running_mean.to(wide)) * s + shift)
    return out
'''}
