"""class_balanced_weights and make_balanced_sampler: every present class drawn equally often."""
import math

import pytest
import torch

from course.judge.adapter import StudentError
from course.judge.expect import expect, expect_close, expect_equal, fail

pytestmark = pytest.mark.task("balanced")


def imbalanced_targets(gen, counts, labels):
    t = torch.cat([torch.full((c,), lab, dtype=torch.int64) for c, lab in zip(counts, labels)])
    return t[torch.randperm(len(t), generator=gen)]


def reference_weights(targets):
    _, inv, counts = torch.unique(targets, return_inverse=True, return_counts=True)
    return 1.0 / counts[inv].double()


def case_targets(gen, case):
    if case == "ten_classes":
        return torch.randint(0, 10, (200,), generator=gen)
    if case == "gaps_in_labels":
        return imbalanced_targets(gen, [40, 7, 1], [7, 0, 3])
    if case == "one_class":
        n, label = (int(v) for v in torch.randint(5, 40, (2,), generator=gen))
        return torch.full((n,), label % 10, dtype=torch.int64)
    return torch.randint(0, 10, (1,), generator=gen)


def describe(targets, as_list=False):
    sizes = dict(zip(*[x.tolist() for x in torch.unique(targets, return_counts=True)]))
    return (f"class_balanced_weights({'a list of ' if as_list else ''}{len(targets)} targets with class sizes "
            f"{sizes})")


# a single sample: any positive weight is right (a constant answer: worth little)
@pytest.mark.parametrize("case", ["ten_classes", "gaps_in_labels", "one_class",
                                  pytest.param("single_sample", marks=pytest.mark.task("balanced", weight=0.1))])
def test_weights_inverse_class_size(student, gen, case):
    """weights are proportional to 1 / (size of the sample's class)"""
    targets = case_targets(gen, case)
    what = describe(targets)
    r = student.call("balanced_weights", targets=targets)
    w = r["w"]
    if w is None:
        fail(f"{what}: returned a {r['type']} that holds no numbers")
    expect_equal(tuple(w.shape), (len(targets),), f"{what}: shape of the weights")
    expect(bool(torch.isfinite(w).all()) and bool((w > 0).all()), f"{what}: weights must be positive and finite")
    ref = reference_weights(targets)
    expect_close(w.double() / w.double().sum(), ref / ref.sum(), f"{what} (normalised to sum 1)",
                 atol=1e-9, rtol=1e-5)


def test_weights_are_a_float_tensor(student, gen):
    """class_balanced_weights returns a floating-point torch tensor"""
    targets = case_targets(gen, "gaps_in_labels")
    what = describe(targets)
    r = student.call("balanced_weights", targets=targets)
    if r["type"] != "Tensor":
        fail(f"{what}: returned a {r['type']}, expected a float tensor of shape ({len(targets)},)")
    expect(r["w"].is_floating_point(), f"{what}: weights must be a floating-point tensor, got {r['w'].dtype}")
    ref = reference_weights(targets)
    expect_close(r["w"].double() / r["w"].double().sum(), ref / ref.sum(), f"{what} (normalised to sum 1)",
                 atol=1e-9, rtol=1e-5)


def test_targets_given_as_a_list(student, gen):
    """targets may also be a plain list of ints (as many data sets store them)"""
    targets = case_targets(gen, "gaps_in_labels")
    what = describe(targets, as_list=True)
    r = student.call("balanced_weights", targets=targets, as_list=True)
    w = r["w"]
    if w is None:
        fail(f"{what}: returned a {r['type']} that holds no numbers")
    ref = reference_weights(targets)
    expect_close(w.double() / w.double().sum(), ref / ref.sum(), f"{what} (normalised to sum 1)",
                 atol=1e-9, rtol=1e-5)


def test_targets_left_unchanged(student, gen):
    """the targets passed in come back unchanged (an int64 tensor of labels that start above 0)"""
    targets = imbalanced_targets(gen, [9, 4, 2], [int(v) for v in torch.randperm(6, generator=gen)[:3] + 3])
    what = describe(targets)
    r = student.call("balanced_weights", targets=targets)
    after = r.get("after")
    if not torch.equal(after, targets):
        changed = int((after != targets).sum()) if after.shape == targets.shape else len(targets)
        fail(f"{what} changed its argument: {changed} of {len(targets)} labels differ afterwards (e.g. "
             f"{targets[:5].tolist()} became {after[:5].tolist()}); compute the weights without writing into "
             f"targets (torch.as_tensor shares an int64 tensor's memory)")
    w = r["w"]
    if w is None:
        fail(f"{what}: returned a {r['type']} that holds no numbers")
    ref = reference_weights(targets)
    expect_close(w.double() / w.double().sum(), ref / ref.sum(), f"{what} (normalised to sum 1)",
                 atol=1e-9, rtol=1e-5)


def check_balanced(draws, targets, num_samples, what):
    n = len(targets)
    expect_equal(len(draws), num_samples, f"{what}: number of indices drawn")
    bad = draws[(draws < 0) | (draws >= n)]
    expect(len(bad) == 0, f"{what}: drew index {bad[:1].tolist()} outside range({n}) (are the weights per "
                          f"sample, of length N, rather than per class?)")
    labels, sizes = torch.unique(targets, return_counts=True)
    got = torch.stack([(targets[draws] == lab).sum() for lab in labels])
    k = len(labels)
    p = 1 / k
    sd = math.sqrt(num_samples * p * (1 - p))
    for lab, size, c in zip(labels.tolist(), sizes.tolist(), got.tolist()):
        if abs(c - num_samples * p) > 5 * sd:
            fail(f"{what}: class {lab} ({size} of {n} samples) was drawn {c} times; with {k} classes balanced, "
                 f"expected {num_samples * p:.0f} +- {sd:.0f} (5 standard deviations allowed). Draws per class: "
                 f"{dict(zip(labels.tolist(), got.tolist()))}")


@pytest.mark.parametrize("counts,labels", [([2000, 300, 40, 6], [0, 1, 2, 3]),
                                           ([50, 500, 5], [9, 4, 0])])
def test_class_frequencies_balanced(student, gen, counts, labels):
    """the drawn class frequencies are equal within 5 standard deviations (two seeds, 24k draws)"""
    targets = imbalanced_targets(gen, counts, labels)
    for _ in range(2):
        seed = int(torch.randint(0, 2**31 - 1, (1,), generator=gen))
        res = student.call("balanced_draws", targets=targets, num_samples=24000, seed=seed)
        what = f"make_balanced_sampler(targets with class sizes {dict(zip(labels, counts))}, 24000, seed {seed})"
        expect_equal(res["len"], 24000, f"len({what})")
        check_balanced(res["draws"], targets, 24000, what)


def test_small_epoch_oversamples_rare_class(student, gen):
    """num_samples = N and num_samples < N on a 95/5 split: the rare class is oversampled (replacement=True for any num_samples)"""
    targets = imbalanced_targets(gen, [190, 10], [0, 1])
    # Fewer draws than samples too: sampling without replacement caps the rare class at its 10 members, far below
    # the balanced 50 +- 25 of 100 draws (or 60 +- 27 of 120).
    fewer = int(torch.randint(100, 121, (1,), generator=gen))
    for num_samples in (200, fewer):
        draws = student.call("balanced_draws", targets=targets, num_samples=num_samples, seed=4)["draws"]
        what = (f"make_balanced_sampler(190 of class 0 and 10 of class 1, num_samples={num_samples}) (every present "
                f"class drawn equally often for any num_samples: sampling is with replacement, also when "
                f"num_samples <= N)")
        check_balanced(draws, targets, num_samples, what)


def test_reproducible_from_generator(student, gen):
    """the same seed gives the same draws whatever the global RNG did; another seed other draws"""
    targets = imbalanced_targets(gen, [100, 20, 3], [0, 1, 2])
    a = student.call("balanced_draws", targets=targets, num_samples=300, seed=7, global_seed=1)["draws"]
    b = student.call("balanced_draws", targets=targets, num_samples=300, seed=7, global_seed=2)["draws"]
    c = student.call("balanced_draws", targets=targets, num_samples=300, seed=8, global_seed=1)["draws"]
    what = "make_balanced_sampler(targets, 300, generator)"
    expect(torch.equal(a, b), f"{what}: two samplers with generator seed 7 drew different indices "
                              f"(pass the generator to the sampler; do not use the global RNG)")
    expect(not torch.equal(a, c), f"{what}: seeds 7 and 8 drew identical indices (is the generator used?)")
    check_balanced(a, targets, 300, f"{what} with seed 7")


def test_one_sample_dataset(student, gen):
    """a data set of one sample (one class) still gives num_samples draws, all of index 0"""
    targets = torch.tensor([int(torch.randint(0, 10, (1,), generator=gen))])
    res = student.call("balanced_draws", targets=targets, num_samples=7, seed=3)
    what = f"make_balanced_sampler({targets.tolist()}, 7) (one sample: no special case, it is drawn 7 times)"
    expect_equal(res["len"], 7, f"len({what})")
    check_balanced(res["draws"], targets, 7, what)


def test_every_pass_draws_anew(student, gen):
    """each pass over the sampler (each epoch) draws new indices; the same seed repeats the same passes"""
    targets = torch.randint(0, 4, (40,), generator=gen).tolist()
    seed = int(torch.randint(0, 10**6, (1,), generator=gen))
    a = student.call("balanced_passes", targets=targets, num_samples=60, seed=seed)
    b = student.call("balanced_passes", targets=targets, num_samples=60, seed=seed)
    what = f"two passes over make_balanced_sampler(40 targets, num_samples=60, generator=Generator().manual_seed({seed}))"
    expect(len(a[0]) == 60 and len(a[1]) == 60, f"{what}: the passes drew {len(a[0])} and {len(a[1])} indices")
    expect(a[0] != a[1], f"{what}: the second pass repeated the first pass's 60 indices; every pass (epoch) draws "
                         f"again from the generator, as WeightedRandomSampler does")
    expect(a == b, f"{what}: a second sampler with the same seed gave other passes (draw only from generator)")


@pytest.mark.parametrize("dtype", ["uint8", "int32", "int8", "int16"])
def test_targets_of_other_integer_dtypes(student, gen, dtype):
    """a targets tensor of another integer dtype (uint8, int32, int8, int16) gives the same weights as int64 labels"""
    targets = imbalanced_targets(gen, [12, 5, 2], [int(v) for v in torch.randperm(9, generator=gen)[:3]])
    what = describe(targets).replace("targets", f"{dtype} targets", 1)
    r = student.call("balanced_weights", targets=targets.to(getattr(torch, dtype)))
    w = r["w"]
    if w is None:
        fail(f"{what}: returned a {r['type']} that holds no numbers")
    expect_equal(tuple(w.shape), (len(targets),), f"{what}: shape of the weights (one per sample; a uint8 tensor "
                                                  f"used as an index is a boolean mask, not a list of labels)")
    ref = reference_weights(targets)
    expect_close(w.double() / w.double().sum(), ref / ref.sum(), f"{what} (normalised to sum 1)",
                 atol=1e-9, rtol=1e-5)


# an empty result for empty targets (a constant answer: worth little)
@pytest.mark.task("balanced", weight=0.1)
def test_empty_targets(student):
    """empty targets (N = 0: an int64 or uint8 tensor, or an empty list) give an empty float tensor of shape (0,)"""
    for label, dtype, as_list in (("an empty int64 tensor", torch.int64, False),
                                  ("an empty list (torch.tensor([]) is float32: give it an integer dtype)",
                                   torch.int64, True),
                                  ("an empty uint8 tensor", torch.uint8, False)):
        r = student.call("balanced_weights", targets=torch.zeros(0, dtype=dtype), as_list=as_list)
        what = f"class_balanced_weights({label})"
        if r["type"] != "Tensor":
            fail(f"{what}: returned a {r['type']}, expected a float tensor of shape (0,)")
        expect_equal(tuple(r["w"].shape), (0,), f"{what}: shape of the weights")
        expect(r["w"].is_floating_point(), f"{what}: weights must be a floating-point tensor, got {r['w'].dtype}")


# ------------------------------------------------ issue 39, held-out round 12

def test_sampler_takes_a_list_of_targets(student, gen):
    """make_balanced_sampler also takes targets as a plain list of ints (labels with gaps): balanced draws, len = num_samples"""
    targets = imbalanced_targets(gen, [300, 40, 6], [int(v) for v in torch.randperm(9, generator=gen)[:3]])
    seed = int(torch.randint(0, 2**31 - 1, (1,), generator=gen))
    sizes = dict(zip(*[x.tolist() for x in torch.unique(targets, return_counts=True)]))
    what = (f"make_balanced_sampler(a plain Python list of {len(targets)} int targets with class sizes {sizes}, 6000, "
            f"generator seed {seed}) (targets may be a list of ints, as for class_balanced_weights)")
    res = student.call("balanced_draws", targets=targets, num_samples=6000, seed=seed, as_list=True)
    expect_equal(res["len"], 6000, f"len({what})")
    check_balanced(res["draws"], targets, 6000, what)


# ------------------------------------------------ issue 39, held-out round 17 (contract walk)

def test_sampler_without_a_generator(student, gen):
    """make_balanced_sampler(targets, num_samples) without a generator (the default None): balanced draws, len = num_samples, from the global RNG (torch.manual_seed decides)"""
    targets = imbalanced_targets(gen, [400, 30, 5], [int(v) for v in torch.randperm(9, generator=gen)[:3]])
    global_seed = int(torch.randint(0, 10**6, (1,), generator=gen))
    sizes = dict(zip(*[x.tolist() for x in torch.unique(targets, return_counts=True)]))
    what = (f"make_balanced_sampler(targets with class sizes {sizes}, 3000) called without a generator after "
            f"torch.manual_seed({global_seed}) (generator=None is the default: draw from the global RNG, as "
            f"WeightedRandomSampler does)")
    res = student.call("balanced_draws", targets=targets, num_samples=3000, seed=None, global_seed=global_seed)
    expect_equal(res["len"], 3000, f"len({what})")
    check_balanced(res["draws"], targets, 3000, what)
    # Round 21's contract walk: the global RNG decides (a fixed default torch.Generator() ignores manual_seed)
    again = student.call("balanced_draws", targets=targets, num_samples=3000, seed=None, global_seed=global_seed)
    other = student.call("balanced_draws", targets=targets, num_samples=3000, seed=None, global_seed=global_seed + 1)
    expect(torch.equal(res["draws"], again["draws"]), f"{what}: a second sampler after the same torch.manual_seed("
                                                      f"{global_seed}) drew other indices")
    expect(not torch.equal(res["draws"], other["draws"]),
           f"{what}: after torch.manual_seed({global_seed + 1}) the sampler drew the very same 3000 indices as after "
           f"torch.manual_seed({global_seed}): without a generator the draws come from the global RNG")


# ------------------------------------------------ issue 39, held-out round 21

def test_two_passes_at_once(student, gen):
    """two passes at the same time (two iterators over one sampler, read in turns) each yield num_samples indices, balanced"""
    targets = imbalanced_targets(gen, [300, 40, 6], [int(v) for v in torch.randperm(9, generator=gen)[:3]])
    seed = int(torch.randint(0, 2**31 - 1, (1,), generator=gen))
    got = student.call("balanced_two_passes_at_once", targets=targets.tolist(), num_samples=3000, seed=seed)
    what = (f"two iterators over one make_balanced_sampler(targets of {len(targets)} samples, 3000, generator seed "
            f"{seed}), taken before either is used and read in turns (as zip(loader, loader) does) ('a sampler "
            f"yielding num_samples indices ... every pass over it (every epoch) draws anew': each pass is its own, "
            f"not a share of one cursor kept on the sampler)")
    expect_equal([len(g) for g in got], [3000, 3000], f"{what}: the number of indices each pass yielded")
    for k, g in enumerate(got):
        check_balanced(torch.tensor(g, dtype=torch.int64), targets, 3000, f"{what}, pass {k + 1}")
    expect(got[0] != got[1], f"{what}: both passes yielded the same 3000 indices (every pass draws anew)")


# ------------------------------------------------ issue 39, held-out round 24

def test_sampler_without_a_generator_draws_at_each_pass(student, gen):
    """without a generator each pass draws from the global RNG as it is then: torch.manual_seed(s) just before a pass decides that pass (one sampler, several passes)"""
    targets = imbalanced_targets(gen, [60, 9, 2], [int(v) for v in torch.randperm(9, generator=gen)[:3]])
    build, s = (int(v) for v in torch.randint(0, 10**6, (2,), generator=gen))
    got = student.call("balanced_global_passes", targets=targets.tolist(), num_samples=200, build_seed=build,
                       pass_seeds=[s, s, s + 1])
    what = (f"one make_balanced_sampler(targets of {len(targets)} samples, 200) without a generator, built after "
            f"torch.manual_seed({build}), then three passes after torch.manual_seed({s}), ({s}) and ({s + 1}) "
            f"('with generator=None the draws come from the global RNG, as that sampler's do': "
            f"WeightedRandomSampler draws from the global RNG when a pass starts)")
    expect_equal([len(p) for p in got], [200, 200, 200], f"{what}: the number of indices of each pass")
    expect(got[0] == got[1], f"{what}: the passes after the same torch.manual_seed({s}) drew different indices (are "
                             f"they drawn from a generator of the sampler's own, seeded when it was built?)")
    expect(got[0] != got[2], f"{what}: the passes after torch.manual_seed({s}) and ({s + 1}) drew the same indices")


def test_draws_follow_the_generators_state(student, gen):
    """the draws come from the generator passed in, in the state it is in: an already used generator, its twin (set_state), and a resumed run (set_state back) repeat"""
    targets = imbalanced_targets(gen, [50, 8, 3], [int(v) for v in torch.randperm(9, generator=gen)[:3]])
    seed = int(torch.randint(0, 2**31 - 1, (1,), generator=gen))
    advance = int(torch.randint(1, 50, (1,), generator=gen))
    r = student.call("balanced_generator_state", targets=targets.tolist(), num_samples=100, seed=seed,
                     advance=advance)
    what = (f"make_balanced_sampler(targets of {len(targets)} samples, 100, g) with g = Generator().manual_seed({seed}) "
            f"advanced by {advance} draws before the sampler is built ('drawn reproducibly from generator': from the "
            f"object passed in, in the state it is in, as WeightedRandomSampler's draws are)")
    expect(r["used"] == r["twin"], f"{what}: a pass differs from that of a sampler given a fresh generator set to "
                                   f"g's state with set_state (the draws must depend on the generator's state)")
    expect(r["used"] != r["fresh"], f"{what}: a pass equals that of a sampler given a fresh "
                                    f"Generator().manual_seed({seed}): the generator's state was ignored (a copy "
                                    f"seeded from initial_seed()?)")
    expect(r["moved"], f"{what}: a pass left the caller's generator in the state it was in (drawing advances it)")
    expect(r["resumed"] == r["after_save"], f"{what}: restoring g's state saved after the first pass (set_state, as "
                                            f"a resumed run does) did not repeat the pass that followed")


# ------------------------------------------------ issue 39, held-out round 27

def test_equal_in_expectation_for_any_num_samples(student, gen):
    """every class equally often in expectation for any num_samples, also one the number of classes does not divide (num_samples = 1 of 2 classes, 4 of 3; many seeds)"""
    for sizes, num_samples, n_seeds in (([6, 2], 1, 300), ([5, 1, 3], 4, 150)):
        labels = [int(v) for v in torch.randperm(9, generator=gen)[:len(sizes)]]
        targets = imbalanced_targets(gen, sizes, labels)
        seeds = torch.randint(0, 2**31 - 1, (n_seeds,), generator=gen).tolist()
        passes = student.call("balanced_first_passes", targets=targets.tolist(), num_samples=num_samples, seeds=seeds)
        what = (f"make_balanced_sampler(targets with class sizes {dict(zip(labels, sizes))}, num_samples={num_samples}, "
                f"generator=Generator().manual_seed(s)), one pass for each of {n_seeds} seeds s ('every class present "
                f"in targets is drawn equally often in expectation': for any num_samples, not only a multiple of the "
                f"number of classes; a class must not get the remainder every time)")
        expect_equal([len(p) for p in passes], [num_samples] * n_seeds, f"{what}: the number of indices of each pass")
        draws = torch.tensor([i for p in passes for i in p], dtype=torch.int64)
        check_balanced(draws, targets, num_samples * n_seeds, what)


def test_generator_by_position(student, gen):
    """make_balanced_sampler(targets, num_samples, g) with the generator as third argument (as the notebook's demo calls it) draws from g: same seed same draws whatever the global RNG did, balanced"""
    targets = imbalanced_targets(gen, [120, 15, 4], [int(v) for v in torch.randperm(9, generator=gen)[:3]])
    seed = int(torch.randint(0, 2**31 - 1, (1,), generator=gen))
    what = (f"make_balanced_sampler(targets, 600, torch.Generator().manual_seed({seed})) with the generator passed "
            f"by position, as the notebook's demo does (the signature is make_balanced_sampler(targets, num_samples, "
            f"generator=None): the third argument is the generator)")
    try:
        a, b, c = (student.call("balanced_draws", targets=targets, num_samples=600, seed=s, global_seed=g,
                                positional=True) for s, g in ((seed, 1), (seed, 2), (seed + 1, 1)))
    except StudentError as e:
        fail(f"{what}: {e}")
    expect_equal(a["len"], 600, f"len({what})")
    check_balanced(a["draws"], targets, 600, what)
    expect(torch.equal(a["draws"], b["draws"]), f"{what}: two samplers with generator seed {seed} drew different "
                                                f"indices after different torch.manual_seed calls (is the third "
                                                f"argument taken for something other than the generator?)")
    expect(not torch.equal(a["draws"], c["draws"]), f"{what}: seeds {seed} and {seed + 1} drew identical indices "
                                                    f"(is the generator passed by position used?)")
