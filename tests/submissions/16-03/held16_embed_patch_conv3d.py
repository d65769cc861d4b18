"""Known-wrong patch_embed (round 16): computes the patches with F.conv3d over a dummy depth axis, which is a
convolution (the text: without computing any convolution), though not a conv2d by name."""
from course.grading.class_run.submissions import edited

CELLS = {"embed_impl": edited("16-03", "embed_impl",
    ("    x = images[:, :, :gh * ph, :gw * pw].reshape(n, c, gh, ph, gw, pw)\n"
     "    patches = x.permute(0, 2, 4, 1, 3, 5).reshape(n, gh * gw, c * ph * pw)\n"
     "    out = patches @ weight.reshape(e, -1).T\n"
     "    return out + bias if bias is not None else out\n",
     "    out = F.conv3d(images[:, :, None], weight[:, :, None], bias, stride=(1, ph, pw))[:, :, 0]\n"
     "    return out.flatten(2).transpose(1, 2)\n"))}
EXPECT = {"embed": "fail"}
