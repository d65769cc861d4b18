# A float key_padding_mask read as "-inf means padding": -inf entries remove their key, every other value
# is dropped instead of being added to the scores ("A float version of either is added to the scores").
from course.grading.class_run.submissions import edited

EXPECT = {"mha": "fail"}
CELLS = {"mha_impl": edited("16-03", "mha_impl", (
    "            m = key_padding_mask[:, None, None, :]\n",
    "            kpm = key_padding_mask if key_padding_mask.dtype == torch.bool else torch.isneginf(key_padding_mask)\n"
    "            m = kpm[:, None, None, :]\n"))}
