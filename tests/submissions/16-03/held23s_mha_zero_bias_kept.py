"""Known-wrong MultiHeadAttention (round 23s, the device row read on fresh modules only): the zero score bias
is made once per (N, H, L, S) and kept on the module (the masks are then applied out of place, so every call on
one device is right). A layer called on the CPU and then moved with .to(device) reuses the CPU tensor for the
same shapes and attention refuses it, where the text says every tensor forward creates (masks, zero biases) is
on the inputs' device."""
from course.grading.class_run.submissions import edited

CELLS = {"mha_impl": edited(
    "16-03", "mha_impl",
    ("        bias = torch.zeros(n, h, L, S, dtype=q.dtype, device=q.device)\n",
     "        zeros = self.__dict__.setdefault('_zeros', {})\n"
     "        if (n, h, L, S) not in zeros:\n"
     "            zeros[(n, h, L, S)] = torch.zeros(n, h, L, S, dtype=q.dtype, device=q.device)\n"
     "        bias = zeros[(n, h, L, S)]\n"))}
EXPECT = {"mha": "fail"}
