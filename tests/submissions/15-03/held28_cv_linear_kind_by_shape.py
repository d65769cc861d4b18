"""Held-out round 28 (15-03 convert): decides which classifier Linear becomes the 7x7 conv from its shape.

The text: `convert_checkpoint` works for an `OldNet(c1, c2, hidden, num_classes)` of "any sizes" and reshapes
"the two classifier weights" (classifier.1 -> fc, a 7x7 conv; classifier.4 -> out, a 1x1 conv). This version
reshapes every 2-D weight to (H, -1, 7, 7) when its second size is divisible by 49 and to (K, H, 1, 1)
otherwise. With hidden a multiple of 49, e.g. OldNet(2, 3, 49, 5), `out.weight` (5, 49) becomes (5, 1, 7, 7)
and NewNet(2, 3, 49, 5).load_state_dict(result, strict=True) raises a size mismatch.
"""
from course.grading.class_run.submissions import edited

EXPECT = {"convert": "fail"}

CELLS = {
    "convert_impl": edited(
        "15-03", "convert_impl",
        ('        if new_key == "fc.weight":\n'
         '            value = value.reshape(value.shape[0], -1, 7, 7)\n'
         '        elif new_key == "out.weight":\n'
         '            value = value.reshape(*value.shape, 1, 1)\n',
         '        if value.dim() == 2:  # a Linear weight: 7x7 conv if it reads a flattened 7x7 map, else 1x1\n'
         '            if value.shape[1] % 49 == 0:\n'
         '                value = value.reshape(value.shape[0], -1, 7, 7)\n'
         '            else:\n'
         '                value = value.reshape(*value.shape, 1, 1)\n')),
}
