"""Known-wrong CausalSelfAttention (held-out round 19, a hidden maximum length): the causal mask is a
non-persistent buffer torch.ones(128, 128).tril() built once in __init__ (nanoGPT's block_size) and sliced at
each call. The buffer follows the module's device, and every sequence up to 128 positions is right; a longer
one (the notebook's own demo reaches 160) fails, where the text says forward takes any (B, T, E) and equals the
whole-sequence rows for any split of the sequence."""
from course.grading.class_run.submissions import edited

CELLS = {"kv_impl": edited(
    "16-03", "kv_impl",
    ("        self.proj = nn.Linear(embed_dim, embed_dim)\n",
     "        self.proj = nn.Linear(embed_dim, embed_dim)\n"
     "        self.register_buffer(\"causal\", torch.ones(128, 128, dtype=torch.bool).tril(), persistent=False)\n"),
    ("        seen = torch.arange(past + t, device=x.device)[None, :] <= past + torch.arange(t, device=x.device)[:, None]",
     "        seen = self.causal[past:past + t, :past + t]"))}
EXPECT = {"kv_cache": "fail"}
