"""Known-wrong MultiHeadAttention (round 27): batch_first defaults to True (the layout most code uses
today), not False. With batch_first given, every call is right; MultiHeadAttention(E, H) without it reads
(L, N, E) inputs as (N, L, E), which mixes the batch and the sequence. The text: "MultiHeadAttention(embed_dim,
num_heads, bias=True, batch_first=False)" and "By default the layout is sequence first, (L, N, E)" (goes wrong
on a layer built without batch_first, called on sequence-first inputs with N != L or N > 1)."""
from course.grading.class_run.submissions import edited

CELLS = {"mha_impl": edited(
    "16-03", "mha_impl",
    ("def __init__(self, embed_dim, num_heads, bias=True, batch_first=False):",
     "def __init__(self, embed_dim, num_heads, bias=True, batch_first=True):"))}
EXPECT = {"mha": "fail"}
