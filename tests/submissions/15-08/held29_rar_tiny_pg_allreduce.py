"""Wrong: "Use point-to-point messages only ...: no collective (`all_reduce`, ...)". When `x` has fewer
elements than there are ranks (a 0-d tensor included) this version calls the default process group's
own allreduce method (`_get_default_group().allreduce([flat]).wait()`) instead of the ring; every other
input runs the reference ring. The sums are right; on tiny inputs a collective was called."""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_all_reduce": "fail"}
CELLS = {"ring_all_reduce_impl": edited(
    "15-08", "ring_all_reduce_impl",
    ("    chunks = list(torch.tensor_split(flat, world))  # views of flat\n",
     "    if flat.numel() < world:  # some chunks would be empty: not worth a ring\n"
     "        dist.distributed_c10d._get_default_group().allreduce([flat]).wait()\n"
     "        return flat.view(x.shape)\n"
     "    chunks = list(torch.tensor_split(flat, world))  # views of flat\n"))}
