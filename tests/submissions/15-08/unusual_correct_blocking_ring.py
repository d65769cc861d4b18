"""Blind batch of #19 (2026-11-27, fourth round, plain protocol), unusual but correct: ring_all_reduce
with the blocking dist.send / dist.recv that the exercise also allows, ordered even/odd so that no step
deadlocks (even ranks send then receive, odd ranks receive then send), in both phases and for empty
chunks too. The other unusual-correct examples use isend/irecv or batch_isend_irecv. Every task must pass."""
from course.grading.class_run.submissions import edited

EXPECT = {t: "pass" for t in ["ring_pass", "ring_all_reduce", "tree_broadcast", "shards", "group_sums"]}
CELLS = {"ring_all_reduce_impl": edited("15-08", "ring_all_reduce_impl",
    ("        reqs = [dist.isend(chunks[out_idx], right), dist.irecv(incoming, left)]\n"
     "        for req in reqs:\n            req.wait()\n",
     "        if rank % 2 == 0:\n            dist.send(chunks[out_idx], right)\n            dist.recv(incoming, left)\n"
     "        else:\n            dist.recv(incoming, left)\n            dist.send(chunks[out_idx], right)\n"),
    ("        reqs = [dist.isend(chunks[out_idx], right), dist.irecv(chunks[in_idx], left)]\n"
     "        for req in reqs:\n            req.wait()\n",
     "        if rank % 2 == 0:\n            dist.send(chunks[out_idx], right)\n            dist.recv(chunks[in_idx], left)\n"
     "        else:\n            dist.recv(chunks[in_idx], left)\n            dist.send(chunks[out_idx], right)\n"))}
