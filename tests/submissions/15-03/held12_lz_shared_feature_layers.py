"""Held-out round 12 (issue 39): make_lazy_net builds its feature extractor once, at module level, and
puts that same object into every network it returns. The first network to run materialises the shared
LazyConv2d for its channel count; a second network, for images with another channel count (or trained
separately), shares and breaks on those weights. Breaks: "make_lazy_net(num_classes) returns a model ...
for images (N, C, H, W) of any channel count and size" (each call, a model of its own)."""
from course.grading.class_run.submissions import edited

CELLS = {"lazy_impl": edited("15-03", "lazy_impl",
                             ("def make_lazy_net(num_classes):\n",
                              "_FEATURES = nn.Sequential(nn.LazyConv2d(16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten())\n\n\n"
                              "def make_lazy_net(num_classes):\n"),
                             ("        nn.LazyConv2d(16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),\n",
                              "        *_FEATURES,\n"))}
EXPECT = {"lazy": "fail"}
