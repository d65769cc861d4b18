"""Known-wrong blocked_attention (red team 21): PyTorch's own attention hidden inside an operator of the
submission's own registry (torch.library.custom_op). A probe's TorchDispatchMode is shown that one op, and what
its kernel runs is inside the mode's own handling, so no op log saw the full score matrix: 26/29 of the task and
every essential check passed. The text asks for tiles written from PyTorch's tensor operations and names an
operator of one's own registry as failing that clause."""
CELLS = {"blocked_impl": '''import math
import torch.nn.functional as F


@torch.library.custom_op("mine::attn", mutates_args=())
def _attn(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: bool, scale: float) -> torch.Tensor:
    if causal and scale <= 0:
        mask = torch.ones(q.shape[-2], k.shape[-2], dtype=torch.bool, device=q.device).tril()
        return F.scaled_dot_product_attention(q, k, v, attn_mask=mask, scale=scale)
    return F.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=scale)


@_attn.register_fake
def _(q, k, v, causal, scale):
    return q.new_empty(q.shape[:-1] + (v.shape[-1],))


def blocked_attention(q, k, v, block_size, is_causal=False, scale=None):
    return _attn(q, k, v, is_causal, scale if scale is not None else 1 / math.sqrt(q.shape[-1]))
'''}
EXPECT = {"blocked": "fail"}
