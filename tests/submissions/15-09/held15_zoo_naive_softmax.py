"""fixed_predict_proba writes the softmax out as exp(z) / exp(z).sum(1): logits above about 88 (float32) overflow
to inf and the probabilities come back NaN, where F.softmax gives finite probabilities."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "pass", "zoo": "fail", "leaks": "pass"}
CELLS = {"zoo_impl": edited("15-09", "zoo_impl", (
    "            return F.softmax(model(x), dim=1)\n",
    "            e = model(x).exp()\n"
    "            return e / e.sum(dim=1, keepdim=True)\n"))}
