"""A notebook file cut off in the middle."""
EXPECT_TOTAL = 0
RAW = '{"cells": [{"cell_type": "code", "metadata": {}, "source": ["import torch\\n", "def f(x'
