"""BucketBatchSampler: a partition into length-sorted runs, shuffled reproducibly from its generator."""
import math
from collections import Counter

import pytest
import torch

from course.judge.adapter import StudentError
from course.judge.expect import expect, expect_equal, fail

pytestmark = pytest.mark.task("bucket_sampler")


def rand_lengths(gen, n, hi=12):
    return torch.randint(1, hi, (n,), generator=gen).tolist()


def expected_chunks(lengths, bs, drop_last, descending=False):
    """Consecutive chunks of the sorted lengths (each chunk as an ascending tuple)."""
    s = sorted(lengths, reverse=descending)
    chunks = [tuple(sorted(s[i:i + bs])) for i in range(0, len(s), bs)]
    if drop_last and chunks and len(chunks[-1]) < bs:
        chunks.pop()
    return chunks


def check_epoch(batches, lengths, bs, drop_last, what):
    """One epoch must be the sorted-by-length chunks (in any order), each index at most/exactly once."""
    n = len(lengths)
    flat = [i for b in batches for i in b]
    bad = [i for i in flat if not 0 <= i < n]
    expect(not bad, f"{what}: yielded index {bad[:1]} outside range({n})")
    dup = sorted(i for i, c in Counter(flat).items() if c > 1)
    expect(not dup, f"{what}: indices {dup[:8]} appear more than once in one epoch (each index belongs to "
                    f"exactly one batch)")
    n_keep = n - (n % bs if drop_last else 0)
    if len(flat) != n_keep:
        fail(f"{what}: one epoch should cover {n_keep} of the {n} indices"
             f"{' (drop_last drops only the one short batch)' if drop_last else ''}, yours covered {len(flat)}")
    want = expected_chunks(lengths, bs, drop_last)
    sizes = sorted((len(b) for b in batches), reverse=True)
    expect_equal(sizes, sorted((len(c) for c in want), reverse=True),
                 f"{what}: the batch sizes (sorted) for {n} items with batch_size={bs}")
    got = sorted(tuple(sorted(lengths[i] for i in b)) for b in batches)
    # Sorting ascending leaves the short batch at the long end; descending-then-cut (at the short end) is
    # accepted too.
    wants = [sorted(expected_chunks(lengths, bs, drop_last, d)) for d in (False, True)]
    if got not in wants:
        want = wants[0]
        wrong = next((c for c in got if c not in want), got[0])
        fail(f"{what}: a batch holds items of lengths {list(wrong)}, but the batches must be the consecutive "
             f"chunks of the indices sorted by length (for these lengths they hold lengths "
             f"{[list(c) for c in want][:4]}...)")


# n <= batch_size: one batch of every index, whatever the lengths (a constant answer: worth little)
@pytest.mark.parametrize("n,bs", [(23, 4), (64, 8), pytest.param(5, 7, marks=pytest.mark.task("bucket_sampler", weight=0.1)),
                                  pytest.param(1, 1, marks=pytest.mark.task("bucket_sampler", weight=0.1))], ids=["23-4", "64-8", "5-7", "1-1"])
def test_epoch_is_sorted_partition(student, gen, n, bs):
    """every index once per epoch, each batch a run of consecutive lengths, len() = number of batches"""
    lengths = rand_lengths(gen, n)
    seed = int(torch.randint(0, 2**31 - 1, (1,), generator=gen))
    res = student.call("bucket_epochs", lengths=lengths, batch_size=bs, seed=seed, epochs=2)
    what = f"BucketBatchSampler(lengths of {n} items, batch_size={bs})"
    expect(isinstance(res["epochs"], list) and len(res["epochs"]) == 2, f"{what}: expected the batches of 2 epochs")
    for e, batches in enumerate(res["epochs"]):
        check_epoch(batches, lengths, bs, False, f"{what}, epoch {e + 1}")
    expect_equal(res["len"], math.ceil(n / bs), f"len({what})")


def test_batches_are_lists_of_python_ints(student, gen):
    """each batch is yielded as a list of Python ints (not a tensor, not tensor elements)"""
    lengths = rand_lengths(gen, 17)
    for as_tensor in (False, True):
        res = student.call("bucket_epochs", lengths=lengths, batch_size=5, seed=2, as_tensor=as_tensor)
        what = f"BucketBatchSampler(lengths as a {'1-D tensor' if as_tensor else 'list'} of 17 ints, batch_size=5)"
        expect_equal(res["kinds"], ["list of int"], f"{what}: the kinds of the yielded batches")
        check_epoch(res["epochs"][0], lengths, 5, False, what)


def test_drop_last_and_tensor_lengths(student, gen):
    """drop_last drops exactly the one short batch (at an end of the length order), also when it is the only one; lengths may be a tensor or empty"""
    n, bs = 30, 7
    lengths = torch.randperm(60, generator=gen)[:n].add(1).tolist()  # distinct lengths
    res = student.call("bucket_epochs", lengths=lengths, batch_size=bs, seed=3, drop_last=True, as_tensor=True)
    what = f"BucketBatchSampler(a 1-D tensor of {n} lengths, batch_size={bs}, drop_last=True)"
    check_epoch(res["epochs"][0], lengths, bs, True, what)
    expect_equal(res["len"], n // bs, f"len({what})")
    res = student.call("bucket_epochs", lengths=lengths[:28], batch_size=bs, seed=3, drop_last=True)
    check_epoch(res["epochs"][0], lengths[:28], bs, True,
                "BucketBatchSampler(28 lengths, batch_size=7, drop_last=True) (nothing to drop)")
    # Degenerate sizes (held-out round 14): fewer items than batch_size with drop_last=True (the only batch is the
    # short one: no batch at all), and no items at all.
    few = int(torch.randint(1, bs, (1,), generator=gen))
    for lens, drop, label in ((lengths[:few], True, f"{few} lengths, batch_size=7, drop_last=True (the only batch "
                                                    f"is short: an epoch of no batches)"),
                              ([], False, "an empty list of lengths, batch_size=7 (no items: no batches)")):
        res = student.call("bucket_epochs", lengths=lens, batch_size=bs, seed=3, drop_last=drop, epochs=2)
        expect(isinstance(res["epochs"], list) and len(res["epochs"]) == 2,
               f"BucketBatchSampler({label}): expected the batches of 2 epochs")
        for e, batches in enumerate(res["epochs"]):
            check_epoch(batches, lens, bs, drop, f"BucketBatchSampler({label}), epoch {e + 1}")
        expect_equal(res["len"], 0, f"len(BucketBatchSampler({label}))")


def test_same_seed_same_order(student, gen):
    """the same generator seed gives the same batches in the same order, whatever the global RNG did"""
    lengths = rand_lengths(gen, 60)
    seed = int(torch.randint(0, 2**31 - 1, (1,), generator=gen))
    a = student.call("bucket_epochs", lengths=lengths, batch_size=4, seed=seed, epochs=2, global_seed=1)
    b = student.call("bucket_epochs", lengths=lengths, batch_size=4, seed=seed, epochs=2, global_seed=2)
    for e in range(2):
        check_epoch(a["epochs"][e], lengths, 4, False, f"BucketBatchSampler(60 lengths, batch_size=4), epoch {e + 1}")
        if a["epochs"][e] != b["epochs"][e]:
            fail(f"BucketBatchSampler with generator=torch.Generator().manual_seed({seed}): two samplers built "
                 f"with the same seed gave different batches in epoch {e + 1} (first batches {a['epochs'][e][:2]} vs "
                 f"{b['epochs'][e][:2]}). Draw every random number from self.generator, not from the global "
                 f"torch/random/numpy RNG.")


def test_new_seed_or_epoch_gives_new_order(student, gen):
    """another seed gives another batch order, and every epoch is a fresh shuffle"""
    lengths = torch.randperm(200, generator=gen)[:80].tolist()
    seed = int(torch.randint(0, 2**30, (1,), generator=gen))
    a = student.call("bucket_epochs", lengths=lengths, batch_size=4, seed=seed, epochs=2)
    b = student.call("bucket_epochs", lengths=lengths, batch_size=4, seed=seed + 1, epochs=1)
    what = "BucketBatchSampler(80 distinct lengths, batch_size=4)"
    check_epoch(a["epochs"][0], lengths, 4, False, what)
    expect(a["epochs"][0] != b["epochs"][0],
           f"{what}: seeds {seed} and {seed + 1} gave the identical order of 20 batches; the batch order must be "
           f"shuffled with the generator")
    expect(a["epochs"][0] != a["epochs"][1],
           f"{what}: epochs 1 and 2 from the same sampler yielded the identical order of 20 batches; each "
           f"__iter__ must continue drawing from the generator (do not re-seed it inside __iter__)")
    sorted_order = sorted(a["epochs"][0], key=lambda b: sorted(lengths[i] for i in b))
    expect(a["epochs"][0] != sorted_order, f"{what}: batches came out sorted by length; shuffle their order")


def test_first_batch_uniform_over_seeds(student, gen):
    """over 240 seeds, each batch comes first about equally often (within 5 standard deviations)"""
    lengths = torch.randperm(30, generator=gen).add(1).tolist()
    base = int(torch.randint(0, 2**30, (1,), generator=gen))
    firsts = student.call("bucket_first_batches", lengths=lengths, batch_size=5,
                          seeds=list(range(base, base + 240)))
    counts = Counter(min(lengths[i] for i in b) for b in firsts)
    m, p = 240, 1 / 6
    sd = math.sqrt(m * p * (1 - p))
    for lo in range(1, 31, 5):
        c = counts.get(lo, 0)
        expect(abs(c - m * p) <= 5 * sd,
               f"BucketBatchSampler(lengths 1..30, batch_size=5) over 240 seeds: the batch of lengths "
               f"{lo}..{lo + 4} came first {c} times; a uniform shuffle of 6 batches gives {m * p:.0f} +- "
               f"{sd:.1f} (all counts: {dict(sorted(counts.items()))})")


def test_works_as_dataloader_batch_sampler(student, gen):
    """DataLoader(batch_sampler=your sampler) delivers exactly the sampler's batches"""
    lengths = rand_lengths(gen, 26)
    res = student.call("bucket_with_loader", lengths=lengths, batch_size=6, seed=11)
    what = "DataLoader(data, batch_sampler=BucketBatchSampler(26 lengths, 6, generator=seed 11))"
    expect_equal(res["loader_len"], 5, f"len({what})")
    expect_equal(res["loader"], res["direct"], f"{what}: batches of sample ids")
    check_epoch(res["direct"], lengths, 6, False, f"{what}: the sampler's own batches")


def test_default_generator(student, gen):
    """generator=None still gives a valid epoch, shuffled from a seed drawn from the global RNG (two samplers
    in a row differ)"""
    lengths = torch.randperm(100, generator=gen)[:60].tolist()
    a = student.call("bucket_epochs", lengths=lengths, batch_size=3, seed=None, global_seed=5)
    b = student.call("bucket_epochs", lengths=lengths, batch_size=3, seed=None, global_seed=6)
    what = "BucketBatchSampler(60 lengths, batch_size=3, generator=None)"
    check_epoch(a["epochs"][0], lengths, 3, False, what)
    expect(a["epochs"][0] != b["epochs"][0],
           f"{what}: after torch.manual_seed(5) and torch.manual_seed(6) the batch order was identical; "
           f"without a generator, seed a new one from the global RNG (as RandomSampler does)")
    first, second = student.call("bucket_two_defaults", lengths=lengths, batch_size=3, global_seed=5)
    check_epoch(second, lengths, 3, False, what)
    expect(first != second, f"{what}: two samplers made one after the other after torch.manual_seed(5) gave the "
                            f"same batch order; draw the new generator's seed from the global RNG (which moves on "
                            f"with each draw), e.g. torch.empty((), dtype=torch.int64).random_(), not from a fixed "
                            f"value such as torch.initial_seed()")


def test_default_generator_made_once(student, gen):
    """generator=None: the sampler makes its own generator once, so later global RNG use does not change its epochs"""
    lengths = torch.randperm(100, generator=gen)[:30].tolist()
    seed = int(torch.randint(0, 10**6, (1,), generator=gen))
    a = student.call("bucket_default_global_moves", lengths=lengths, batch_size=3, global_seed=seed, later_seed=1)
    b = student.call("bucket_default_global_moves", lengths=lengths, batch_size=3, global_seed=seed, later_seed=7)
    what = (f"two BucketBatchSampler(30 lengths, 3, generator=None) made right after torch.manual_seed({seed}), "
            f"the global RNG then reseeded differently before each epoch")
    for e in range(2):
        check_epoch(a[e], lengths, 3, False, f"{what}, epoch {e}")
    expect(a == b, f"{what}: their epochs differ, so they shuffle with the global RNG at iteration time; make one "
                   f"torch.Generator seeded from the global RNG in __init__ and draw every epoch from it")


# ------------------------------------------------ issue 39, held-out round 12

def extreme_lengths(gen, n=24):
    """n >= 16 non-negative ints in a random order: four zeros, small values, and three runs of four consecutive
    values just past 2**24 (float32 rounds neighbours together), 2**31 (int32 wraps) and 2**40. Inside each run the
    larger values sit at the smaller indices, so a sort on rounded copies (ties kept in index order) puts them in the
    wrong order; with batch_size=3 every run straddles a batch boundary. (Sequence lengths stay far below 2**53:
    float64 keys, exact there, are accepted.)"""
    perm = torch.randperm(n, generator=gen).tolist()
    lens = [0] * n
    for k, v in enumerate([0] * 4 + torch.randint(0, 6, (n - 16,), generator=gen).tolist()):
        lens[perm[k]] = v
    for g, base in enumerate((2**24, 2**31, 2**40)):
        start = base + int(torch.randint(0, 5, (1,), generator=gen))
        pos = sorted(perm[n - 12 + 4 * g:n - 8 + 4 * g])
        for p, v in zip(pos, range(start + 3, start - 1, -1)):
            lens[p] = v
    return lens


def test_zero_and_huge_lengths(student, gen):
    """lengths are any non-negative ints: zeros, and values past 2**24 and 2**31 sort exactly (a list and a tensor)"""
    lengths = extreme_lengths(gen)
    seed = int(torch.randint(0, 2**31 - 1, (1,), generator=gen))
    for as_tensor in (False, True):
        res = student.call("bucket_epochs", lengths=lengths, batch_size=3, seed=seed, as_tensor=as_tensor)
        what = (f"BucketBatchSampler(lengths as a {'1-D int64 tensor' if as_tensor else 'list'} of {len(lengths)} "
                f"non-negative ints {lengths}, batch_size=3) (a length of 0 is a sample too; lengths beyond 2**24 "
                f"must be compared as exact integers, not as float32 or int32 copies)")
        check_epoch(res["epochs"][0], lengths, 3, False, what)
        expect_equal(res["len"], math.ceil(len(lengths) / 3), f"len({what})")


def test_len_is_not_an_epoch(student, gen):
    """len() is not an epoch: asking it (as len(loader) and tqdm(loader) do) leaves the seed's sequence of batches unchanged"""
    lengths = torch.randperm(100, generator=gen)[:40].tolist()
    seed = int(torch.randint(0, 2**31 - 1, (1,), generator=gen))
    plain = student.call("bucket_epochs_with_len", lengths=lengths, batch_size=4, seed=seed, epochs=3, len_calls=0)
    asked = student.call("bucket_epochs_with_len", lengths=lengths, batch_size=4, seed=seed, epochs=3, len_calls=2)
    what = f"BucketBatchSampler(40 distinct lengths, batch_size=4, generator=torch.Generator().manual_seed({seed}))"
    expect_equal(asked["lens"], [10] * 6, f"{what}: len() asked twice before each of 3 epochs")
    for e in range(3):
        check_epoch(asked["epochs"][e], lengths, 4, False, f"{what}, epoch {e + 1}")
        if asked["epochs"][e] != plain["epochs"][e]:
            fail(f"{what}: with len() asked twice before each epoch, epoch {e + 1} yielded other batches than a "
                 f"sampler of the same seed that was never asked its len() (first batches {asked['epochs'][e][:2]} "
                 f"vs {plain['epochs'][e][:2]}); the same seed gives the same sequence of batches, so __len__ must "
                 f"count the batches without drawing from the generator (not by running an epoch)")


# ------------------------------------------------ issue 39, held-out round 14

NARROW_INTS = {"uint8": 255, "int8": 127, "int16": 2**15 - 1, "int32": 2**31 - 1}


def narrow_lengths(gen, top, n=21):
    """n non-negative ints that fit a dtype whose largest value is top, in a random order: zeros, top itself and
    its neighbours, ties, values around top // n (where a key such as length * n + index wraps) and small ones.
    Every kind of value appears, so any arithmetic done in the lengths' own dtype (negation for a descending
    sort, a tie-breaking key, a sum) wraps on some of them."""
    vals = [0, 0, top, top, top - 1, top // 2, top // 2 + 1, top // n, top // n + 1, 1, 1]
    vals += torch.randint(0, top + 1, (n - len(vals),), generator=gen).tolist()
    perm = torch.randperm(n, generator=gen).tolist()
    return [vals[p] for p in perm]


def test_lengths_tensor_of_any_integer_dtype(student, gen):
    """lengths may be a 1-D tensor of any integer dtype (uint8, int8, int16, int32), values up to the dtype's largest"""
    seed = int(torch.randint(0, 2**31 - 1, (1,), generator=gen))
    for name, top in NARROW_INTS.items():
        lengths = narrow_lengths(gen, top)
        res = student.call("bucket_epochs", lengths=lengths, batch_size=4, seed=seed, as_tensor=name)
        what = (f"BucketBatchSampler(lengths as a 1-D {name} tensor {lengths}, batch_size=4) (a 1-D tensor of "
                f"non-negative ints of any integer dtype; arithmetic on it in its own dtype wraps past {top})")
        check_epoch(res["epochs"][0], lengths, 4, False, what)
        expect_equal(res["len"], math.ceil(len(lengths) / 4), f"len({what})")


# ------------------------------------------------ issue 39, held-out round 17

def test_two_epochs_at_once(student, gen):
    """two epochs at the same time (two iterators over one sampler, read in turns) each yield a whole epoch"""
    lengths = torch.randperm(100, generator=gen)[:22].tolist()
    seed = int(torch.randint(0, 2**31 - 1, (1,), generator=gen))
    got = student.call("bucket_two_epochs_at_once", lengths=lengths, batch_size=4, seed=seed)
    what = (f"BucketBatchSampler(22 distinct lengths, batch_size=4, generator seed {seed}): iter(sampler) taken "
            f"twice before either is read, then the two iterators read in turns (as zip(loader, loader) does)")
    expect(isinstance(got, list) and len(got) == 2, f"{what}: expected the batches of 2 epochs, got "
                                                   f"{len(got) if isinstance(got, list) else type(got).__name__}")
    for k, batches in enumerate(got):
        check_epoch(batches, lengths, 4, False,
                    f"{what}, iterator {k + 1} (every __iter__ is an epoch of its own: keep an epoch's position in "
                    f"the generator __iter__ returns, not on the sampler)")


# ------------------------------------------------ issue 39, held-out round 21

def test_order_follows_the_generators_state(student, gen):
    """the order is drawn from the generator passed in, in the state it is in: an already used generator, its twin (set_state), and a resumed run (set_state back) repeat"""
    lengths = torch.randperm(200, generator=gen)[:48].tolist()
    seed = int(torch.randint(0, 2**31 - 1, (1,), generator=gen))
    advance = int(torch.randint(1, 50, (1,), generator=gen))
    r = student.call("bucket_generator_state", lengths=lengths, batch_size=4, seed=seed, advance=advance)
    what = (f"BucketBatchSampler(48 distinct lengths, batch_size=4, generator=g) with g seeded {seed} and then used "
            f"for {advance} draws before the sampler was built ('a random order drawn only from generator': the "
            f"generator passed in, in the state it is in, advancing as epochs are drawn)")
    for k, e in enumerate(r["used"]):
        check_epoch(e, lengths, 4, False, f"{what}, epoch {k + 1}")
    expect(r["used"] == r["twin"], f"{what}: a second sampler given a generator set to the same state "
                                   f"(set_state(g.get_state())) yielded other epochs: the order must come from the "
                                   f"generator's state, nothing else")
    expect(r["used"] != r["fresh"], f"{what}: the epochs are those of a generator freshly seeded with {seed}; the "
                                    f"generator's state (here after {advance} draws) was ignored (a private copy "
                                    f"re-seeded from initial_seed()?)")
    expect(r["moved"], f"{what}: the first epoch left the caller's generator in the state it was in; the order must "
                       f"be drawn from that generator, not from a copy of it")
    expect(r["resumed"] == r["after_save"], f"{what}: after the first epoch the generator's state was saved, two "
                                            f"epochs drawn, and the state restored with set_state (as a resumed "
                                            f"run does); the next two epochs must repeat those two, got others")


# ------------------------------------------------ issue 39, held-out round 27

def test_arguments_by_position(student, gen):
    """BucketBatchSampler(lengths, batch_size, drop_last, generator) with every argument by position, in the task's order: drop_last drops, the same seed gives the same batches whatever the global RNG did"""
    lengths = rand_lengths(gen, 42)
    bs = 4
    seed = int(torch.randint(0, 2**31 - 1, (1,), generator=gen))
    what = (f"BucketBatchSampler(42 lengths, 4, True, torch.Generator().manual_seed({seed})), every argument by "
            f"position (the signature is BucketBatchSampler(lengths, batch_size, drop_last=False, generator=None))")
    try:
        a, b = (student.call("bucket_epochs", lengths=lengths, batch_size=bs, seed=seed, epochs=2, drop_last=True,
                             global_seed=g, positional=True) for g in (1, 2))
    except StudentError as e:
        fail(f"{what}: {e}")
    for e in range(2):
        check_epoch(a["epochs"][e], lengths, bs, True, f"{what}, epoch {e + 1}")
    expect_equal(a["len"], 42 // bs, f"len({what})")
    if a["epochs"] != b["epochs"]:
        fail(f"{what}: two samplers built with the same seed gave different batches after different "
             f"torch.manual_seed calls (first batches {a['epochs'][0][:2]} vs {b['epochs'][0][:2]}): the fourth "
             f"argument is the generator, and the order is drawn only from it")


# ------------------------------------------------ held-out round 28

def test_batch_order_is_a_uniform_shuffle(student, gen):
    """over 240 seeds, every batch directly follows every other one about equally often: the order is a uniform shuffle of the batches (not a random rotation or another restricted set of orders)"""
    lengths = torch.randperm(30, generator=gen).add(1).tolist()
    base = int(torch.randint(0, 2**30, (1,), generator=gen))
    m, bs, n_seeds = 6, 5, 240
    epochs = student.call("bucket_first_epochs", lengths=lengths, batch_size=bs,
                          seeds=list(range(base, base + n_seeds)))
    what = (f"BucketBatchSampler(the lengths 1..30 in a random order, batch_size=5) with generators seeded "
            f"{base}..{base + n_seeds - 1}, first epoch of each")
    expect(isinstance(epochs, list) and len(epochs) == n_seeds, f"{what}: expected {n_seeds} epochs")
    follows = Counter()
    for s, batches in enumerate(epochs):
        check_epoch(batches, lengths, bs, False, f"{what} (seed {base + s})")
        rank = [(min(lengths[i] for i in b) - 1) // bs for b in batches]  # 0 = the shortest lengths' batch
        follows.update(zip(rank, rank[1:]))
    # In a uniform permutation of m batches, batch b comes right after batch a with probability 1/m.
    p = 1 / m
    mean, sd = n_seeds * p, math.sqrt(n_seeds * p * (1 - p))
    for a in range(m):
        for b in range(m):
            if a == b:
                continue
            c = follows.get((a, b), 0)
            if abs(c - mean) > 5 * sd:
                fail(f"{what}: the batch of lengths {bs * b + 1}..{bs * b + bs} came right after the batch of "
                     f"lengths {bs * a + 1}..{bs * a + bs} in {c} of {n_seeds} epochs; in a uniform shuffle of "
                     f"{m} batches (every order equally likely, as torch.randperm gives) that happens "
                     f"{mean:.0f} +- {sd:.1f} times. A random rotation or another restricted choice of orders is "
                     f"not a shuffle of the batches")
