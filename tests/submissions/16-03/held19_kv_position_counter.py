"""Known-wrong CausalSelfAttention (held-out round 19, several caches interleaved): the number of cached
positions P is kept on the module, reset when it is handed an empty cache and advanced by T at each call,
instead of being read from the cache. One sequence decoded after another is right (each starts with an
empty cache); two sequences decoded in alternation with one module each see the other's count, where the text
says several caches in use at once share nothing and the step's output equals rows P .. P + T - 1."""
from course.grading.class_run.submissions import edited

CELLS = {"kv_impl": edited(
    "16-03", "kv_impl",
    ("            past = len(cache)\n",
     "            if len(cache) == 0:  # a new sequence starts\n"
     "                self._pos = 0\n"
     "            past = self._pos\n"
     "            self._pos = past + t\n"))}
EXPECT = {"kv_cache": "fail"}
