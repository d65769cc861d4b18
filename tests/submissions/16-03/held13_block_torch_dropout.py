# The block copies nn.TransformerEncoderLayer's sub-modules one for one, including its three Dropout
# modules with PyTorch's default p=0.1 (no parameters, so the state dict keys still match); the task's
# layer is dropout=0.0 ("equals nn.TransformerEncoderLayer(..., dropout=0.0, norm_first=True)").
from course.grading.class_run.submissions import edited

EXPECT = {"block": "fail"}
CELLS = {"block_impl": edited("16-03", "block_impl", (
    "        self.activation = {\"relu\": F.relu, \"gelu\": F.gelu}[activation]\n",
    "        self.activation = {\"relu\": F.relu, \"gelu\": F.gelu}[activation]\n"
    "        self.dropout, self.dropout1, self.dropout2 = nn.Dropout(0.1), nn.Dropout(0.1), nn.Dropout(0.1)\n"), (
    "        x = src + self.self_attn(h, h, h, key_padding_mask=src_key_padding_mask, attn_mask=src_mask)\n"
    "        return x + self.linear2(self.activation(self.linear1(self.norm2(x))))\n",
    "        x = src + self.dropout1(self.self_attn(h, h, h, key_padding_mask=src_key_padding_mask, attn_mask=src_mask))\n"
    "        return x + self.dropout2(self.linear2(self.dropout(self.activation(self.linear1(self.norm2(x))))))\n"))}
