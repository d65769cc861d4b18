"""Not a notebook at all."""
EXPECT_TOTAL = 0
RAW = "this is my homework, I hope it works\n"
