"""Held-out round 24: accumulate_grads casts every micro-batch to the dtype of the model's first parameter
before the forward ("so that float32 data goes into a float64 model"). Breaks "the gradient of
loss_fn(model(inputs), targets) on the full batch": the model must see the inputs it was given. Goes wrong on a
model whose inputs are not floating point, e.g. nn.Embedding + nn.Linear fed int64 token ids (the ids become
float and the embedding raises), and on a model whose first parameter has another dtype than its inputs."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "fail", "sgd": "pass", "adamw": "pass", "schedule": "pass", "collate": "pass"}
CELLS = {"accumulate_impl": edited(
    "00-03", "accumulate_impl",
    ("    total = 0.0\n",
     "    total = 0.0\n"
     "    dtype = next(model.parameters()).dtype\n"),
    ("        loss = loss_fn(model(xb), yb)\n",
     "        loss = loss_fn(model(xb.to(dtype)), yb)\n"))}
