"""Held-out round 28 (written as the round's correct answer, and wrong): export_dynamic_batch and save_exported declare
the batch with the dimension hint `Dim.DYNAMIC(min=..., max=...)` instead of a named `Dim`. Exercise 3: the exported
module "accepts every batch size from `min_batch` to `max_batch` inclusive"; exercise 5: "a dynamic batch dimension
... that accepts every batch size from 1 to 1024"; section 3: "if the code only works for some, export fails and says
which constraint it needed". With a named Dim, export raises on a model that branches on the batch size in Python;
the DYNAMIC hint (like AUTO) narrows the range silently to the example's side. Wrong on a model whose forward doubles
its logits when `x.shape[0] > 8`, exported on a batch of 22 with (5, 24): the program rejects a batch of 5; and
save_exported on such a model with an example of 4 rows writes a program that rejects a batch of 1024. The writer
expected DYNAMIC to raise like a named Dim and filed it as correct; the checks' test_no_narrowed_program and
test_exported_no_narrowed_program failed it, rightly."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "fail", "op_inventory": "pass",
          "save_load": "fail"}
CELLS = {
    "export_dynamic_impl": edited(
        "15-05", "export_dynamic_impl",
        ("    batch = Dim(\"batch\", min=min_batch, max=max_batch)\n",
         "    batch = Dim.DYNAMIC(min=min_batch, max=max_batch)\n")),
    "save_load_impl": edited(
        "15-05", "save_load_impl",
        ("    batch = Dim(\"batch\", min=1, max=1024)\n", "    batch = Dim.DYNAMIC(min=1, max=1024)\n")),
}
