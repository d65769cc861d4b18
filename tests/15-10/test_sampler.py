"""Hidden checks for ResumableRandomSampler and make_loader (15-10, judge side)."""
import pytest
import torch

from course.judge.expect import expect, expect_equal, fail

pytestmark = pytest.mark.task("sampler")


def test_epoch_orders(student, gen):
    """each epoch is a permutation of range(num_samples) fixed by (seed, epoch), also beside samplers of other sizes
    with the same seed; epochs and seeds give different orders"""
    n = int(torch.randint(20, 40, (1,), generator=gen))
    # a negative seed: seed is any int (torch.Generator.manual_seed takes negative ones; other checks use seeds >= 0)
    seed = -int(torch.randint(1, 1000, (1,), generator=gen))
    others = [n - int(torch.randint(1, 8, (1,), generator=gen)), n + int(torch.randint(1, 8, (1,), generator=gen))]
    r = student.call("sampler_epochs", n=n, seed=seed, epochs=[0, 1, 2, 5], other_sizes=others)
    what = f"ResumableRandomSampler({n}, seed={seed})"
    expect(len(r["orders"]) == 4, f"{what}: the probe read back {len(r['orders'])} of 4 epochs")
    expect(len(r["sizes"]) == len(others) and all(len(row) == 4 for row in r["sizes"]),
           f"{what}: the probe read back {len(r['sizes'])} of {len(others)} other samplers")
    for m, row in zip(others, r["sizes"]):
        for e, order in zip([0, 1, 2, 5], row):
            expect(sorted(order) == list(range(m)),
                   f"ResumableRandomSampler({m}, seed={seed}) used after ResumableRandomSampler({n}, seed={seed}) in "
                   f"the same process, epoch {e}: it must yield each index in range({m}) exactly once, got {order} "
                   f"(an order shared between samplers, e.g. cached by (seed, epoch), is not this sampler's)")
    for e, order in zip([0, 1, 2, 5], r["orders"]):
        expect(sorted(order) == list(range(n)),
               f"{what}: epoch {e} must yield each index in range({n}) exactly once, got {order}")
    expect(len({tuple(o) for o in r["orders"]}) == 4,
           f"{what}: epochs 0, 1, 2 and 5 should be shuffled differently, got repeated orders {r['orders']}")
    expect(r["again"] == r["orders"][-1],
           f"{what}: a new sampler with the same seed and set_epoch(5) must give the same order as before; "
           f"got {r['again']} vs {r['orders'][-1]}")
    expect(r["other_seed"] != r["orders"][-1], f"{what}: seed {seed + 1} gave the same order as seed {seed}")


def is_epoch(order, n, what):
    """An epoch of this sampler: each index of range(n) once."""
    expect(sorted(order) == list(range(n)), f"{what}: expected each index in range({n}) exactly once, got {order}")


def test_private_generator(student, gen):
    """drawing an epoch's order uses a private torch.Generator: the global torch generator is left alone"""
    n = int(torch.randint(20, 40, (1,), generator=gen))
    seed = int(torch.randint(0, 1000, (1,), generator=gen))
    r = student.call("sampler_epochs", n=n, seed=seed, epochs=[0, 1, 2, 5])
    expect(len(r["orders"]) == 4, f"ResumableRandomSampler({n}, seed={seed}): the probe read back "
                                  f"{len(r['orders'])} of 4 epochs")
    for e, order in zip([0, 1, 2, 5], r["orders"]):
        is_epoch(order, n, f"ResumableRandomSampler({n}, seed={seed}), epoch {e}")
    if not torch.equal(r["rng_a"], r["rng_b"]):
        fail(f"ResumableRandomSampler({n}, seed={seed}): iterating epoch 1 and calling permutation(2) changed the "
             f"global torch random generator (torch.rand after it differs); seed a private "
             f"torch.Generator and pass it to torch.randperm(..., generator=g)")


def draw_seed(gen):
    """A sampler seed drawn per student: 0 (make_loader's default) a third of the time, else up to 10**6."""
    return [0, 1, int(torch.randint(2, 10**6, (1,), generator=gen))][int(torch.randint(0, 3, (1,), generator=gen))]


@pytest.mark.parametrize("where", ["start", "middle", "end"])
def test_resume_mid_epoch(student, gen, where):
    """a fresh sampler loaded from state_dict() yields exactly the rest of the epoch, then the next epoch; set_epoch
    of the epoch it already has changes nothing (a state_dict() taken right after it, pending or in the middle of a
    pass, still says where to resume)"""
    n = int(torch.randint(10, 30, (1,), generator=gen))
    cut = {"start": 0, "middle": int(torch.randint(1, n, (1,), generator=gen)), "end": n}[where]
    epoch = int(torch.randint(0, 4, (1,), generator=gen))
    seed = draw_seed(gen)
    r = student.call("sampler_resume", n=n, seed=seed, epoch=epoch, cut=cut)
    what = (f"ResumableRandomSampler({n}, seed={seed}): after {cut} indices of epoch {epoch}, "
            f"state_dict() -> new sampler.load_state_dict(...)")
    is_epoch(r["full"], n, f"ResumableRandomSampler({n}, seed={seed}), epoch {epoch}")
    is_epoch(r["full_next"], n, f"ResumableRandomSampler({n}, seed={seed}), epoch {epoch + 1}")
    expect(r["head"] == r["full"][:cut], f"{what}: the first {cut} indices differ from epoch {epoch}'s order")
    expect_equal(r["tail"], r["full"][cut:], f"{what}: the resumed pass should yield the remaining indices")
    expect_equal(r["next"], r["full_next"], f"{what}: after set_epoch({epoch + 1}) the next pass should be "
                                            f"epoch {epoch + 1}'s full order")
    expect_equal(r["resaved_tail"], r["full"][cut:],
                 f"{what}, set_epoch({epoch}), state_dict() at once, loaded into a third sampler: its pass should be "
                 f"the last {n - cut} indices of the epoch (set_epoch with the current epoch must not touch pos)")
    expect_equal(r["live_tail"], r["full"][cut:],
                 f"ResumableRandomSampler({n}, seed={seed}): {cut} indices of epoch {epoch} drawn from a live pass, then "
                 f"set_epoch({epoch}) (the epoch it already has), then state_dict() loaded into a new sampler: its "
                 f"pass should be the last {n - cut} indices of the epoch (set_epoch with the current epoch changes "
                 f"nothing, pos included)")


def test_resume_only_next_pass(student, gen):
    """a loaded position applies to the next pass only: the pass after it starts at 0 again"""
    n = int(torch.randint(10, 30, (1,), generator=gen))
    cut = int(torch.randint(1, n, (1,), generator=gen))
    epoch = int(torch.randint(0, 4, (1,), generator=gen))
    seed = draw_seed(gen)
    r = student.call("sampler_resume", n=n, seed=seed, epoch=epoch, cut=cut)
    what = (f"ResumableRandomSampler({n}, seed={seed}) loaded from a state_dict() taken after {cut} indices of "
            f"epoch {epoch}")
    is_epoch(r["full"], n, f"ResumableRandomSampler({n}, seed={seed}), epoch {epoch}")
    expect_equal(r["again"], r["full"], f"{what}: the pass AFTER the resumed one (same epoch, no set_epoch) "
                                        f"should be the full order of epoch {epoch}")
    expect_equal(r["restarted"], r["full"], f"ResumableRandomSampler({n}, seed={seed}), set_epoch({epoch}), a pass "
                                            f"abandoned after {cut} indices, then a new pass (no load_state_dict): "
                                            f"it should be the full order of epoch {epoch}")


def test_set_epoch_changes_epoch(student, gen):
    """set_epoch to another epoch starts that epoch at position 0 (a pending resume position is dropped)"""
    n = int(torch.randint(10, 30, (1,), generator=gen))
    cut = int(torch.randint(1, n, (1,), generator=gen))
    epoch = int(torch.randint(0, 4, (1,), generator=gen))
    seed = draw_seed(gen)
    r = student.call("sampler_resume", n=n, seed=seed, epoch=epoch, cut=cut)
    what = f"ResumableRandomSampler({n}, seed={seed})"
    is_epoch(r["full_next"], n, f"{what}, epoch {epoch + 1}")
    expect_equal(r["other_epoch"], r["full_next"],
                 f"{what}: load_state_dict(state after {cut} indices of epoch {epoch}), then set_epoch({epoch + 1}): "
                 f"the pass should be epoch {epoch + 1}'s full order")
    expect_equal(r["after_new_epoch"], r["full_next"],
                 f"{what}: {cut} indices of epoch {epoch}, set_epoch({epoch + 1}), state_dict() loaded into a new "
                 f"sampler: its pass should be epoch {epoch + 1}'s full order (position 0)")


def test_make_loader(student, gen):
    """make_loader batches the sampler's order, resumes mid-epoch, and leaves the global torch RNG alone; its sampler
    gets the seed (seeds s and s + 1 shuffle differently)"""
    b = int(torch.randint(3, 7, (1,), generator=gen))
    n = b * int(torch.randint(4, 8, (1,), generator=gen)) + int(torch.randint(1, b, (1,), generator=gen))
    seed = int(torch.randint(0, 100, (1,), generator=gen))
    cut = int(torch.randint(1, n // b, (1,), generator=gen))
    sizes = [b] * (n // b) + [n % b]
    r = student.call("loader_batches", n=n, batch_size=b, seed=seed, cut_batches=cut)
    what = f"make_loader(dataset of {n}, batch_size={b}, seed={seed})"
    flat = [i for batch in r["first"] for i in batch]
    expect(sorted(flat) == list(range(n)), f"{what}: one epoch must visit every index once, got {flat}")
    expect([len(x) for x in r["first"]] == sizes,
           f"{what}: expected batches of sizes {sizes}, got {[len(x) for x in r['first']]}")
    expect_equal(r["head"] + r["tail"], r["first"],
                 f"{what}: {cut} batches, sampler.state_dict(), new loader + load_state_dict: the batches")
    other = [i for batch in r["other_seed"] for i in batch]
    expect(sorted(other) == list(range(n)) and other != flat,
           f"{what} and make_loader(..., seed={seed + 1}): the second should visit every index once in another order, "
           f"got {other} (the first: {flat}); pass the seed on, ResumableRandomSampler(len(dataset), seed)")
    if not torch.equal(r["rng_a"], r["rng_b"]):
        fail(f"{what}: creating an iterator over your loader changed the global torch random generator; "
             f"pass the DataLoader its own generator=torch.Generator() (see section 2)")


def test_order_same_in_another_process(student, gen):
    """an epoch's order depends on (seed, epoch) only, so another Python process (another str-hash salt) gets it too"""
    n = int(torch.randint(8, 30, (1,), generator=gen))
    seed = int(torch.randint(0, 10**6, (1,), generator=gen))
    r = student.call("sampler_other_process", n=n, seed=seed, epochs=3)
    expect(len(r["here"]) == len(r["there"]) == 3, f"ResumableRandomSampler({n}, seed={seed}): the probe read back "
                                                   f"{len(r['here'])} and {len(r['there'])} of 3 epochs")
    for e, order in enumerate(r["here"]):
        expect(sorted(order) == list(range(n)), f"ResumableRandomSampler({n}, seed={seed}), epoch {e}: expected each "
                                                f"index in range({n}) exactly once, got {order}")
    for e, (a, b) in enumerate(zip(r["here"], r["there"])):
        expect(a == b, f"ResumableRandomSampler({n}, seed={seed}), epoch {e}: the order changes when Python's "
                       f"hash() of strings is salted differently, as in another process ({a[:8]}... vs "
                       f"{b[:8]}...): seed the generator from the two numbers (e.g. seed * 1_000_003 + epoch), "
                       f"not from hash() of a string")


def test_state_dict_is_plain_data(student, gen):
    """state_dict() returns plain data (ints, floats, strings, lists, dicts), no tensors or generators"""
    n = int(torch.randint(6, 20, (1,), generator=gen))
    r = student.call("sampler_state_types", n=n, seed=3, epoch=1, taken=int(torch.randint(1, n, (1,), generator=gen)))
    expect(r["kind"] == "dict" and not r["bad"],
           f"ResumableRandomSampler({n}).state_dict() mid-epoch should be a dict of plain data, got a {r['kind']} "
           f"with {r['bad'][:5]}")


def test_state_dict_is_a_snapshot(student, gen):
    """state_dict() is a snapshot: a dict taken mid-epoch and kept in memory still says where the sampler was when it
    was taken, after more indices and another state_dict() call"""
    n = int(torch.randint(10, 30, (1,), generator=gen))
    cut1 = int(torch.randint(1, n // 2, (1,), generator=gen))
    cut2 = int(torch.randint(1, n // 2, (1,), generator=gen))
    epoch = int(torch.randint(0, 4, (1,), generator=gen))
    r = student.call("sampler_state_snapshot", n=n, seed=3, epoch=epoch, cut1=cut1, cut2=cut2)
    what = (f"ResumableRandomSampler({n}, seed=3), epoch {epoch}: sd = state_dict() after {cut1} indices, then "
            f"{cut2} more indices and state_dict() again")
    expect(not r["changed"] and not r["same_object"],
           f"{what}: sd changed after it was returned (it was {r['then']}, it is now {r['now']}"
           + ("; the second call returned the same dict object" if r["same_object"] else "")
           + "): state_dict() returns a new dict of plain data each time")
    is_epoch(r["full"], n, f"ResumableRandomSampler({n}, seed=3), epoch {epoch}")
    expect_equal(r["resumed"], r["full"][cut1:], f"{what}: a new sampler loaded from sd should yield the last "
                                                 f"{n - cut1} indices of the epoch")


def test_resume_twice_in_one_epoch(student, gen):
    """an epoch interrupted twice: a sampler resumed mid-epoch and saved again (pos counts from the start of the
    epoch's permutation, not from the resume point) resumes the second time where it stopped"""
    n = int(torch.randint(12, 30, (1,), generator=gen))
    cut1 = int(torch.randint(2, n // 2, (1,), generator=gen))
    cut2 = int(torch.randint(1, n // 2 - 1, (1,), generator=gen))
    epoch = int(torch.randint(0, 4, (1,), generator=gen))
    r = student.call("sampler_double_resume", n=n, seed=3, epoch=epoch, cut1=cut1, cut2=cut2)
    is_epoch(r["full"], n, f"ResumableRandomSampler({n}, seed=3), epoch {epoch}")
    what = (f"ResumableRandomSampler({n}, seed=3), epoch {epoch}: {cut1} indices, state_dict() -> a new sampler, "
            f"{cut2} more, state_dict() -> a third sampler")
    expect_equal(r["first"] + r["second"], r["full"][:cut1 + cut2], f"{what}: the first {cut1 + cut2} indices")
    expect_equal(r["third"], r["full"][cut1 + cut2:],
                 f"{what}: the third sampler must yield the last {n - cut1 - cut2} indices of the epoch (the second "
                 f"state_dict()'s pos is {cut1 + cut2}, the position in the epoch, not the {cut2} of its own pass)")


def test_indices_are_python_ints(student, gen):
    """permutation(epoch) returns a list of Python ints, and the sampler yields Python ints (not 0-dim tensors)"""
    n = int(torch.randint(5, 15, (1,), generator=gen))
    r = student.call("sampler_double_resume", n=n, seed=1, epoch=0, cut1=2, cut2=1)
    what = f"ResumableRandomSampler({n}, seed=1)"
    expect(r["perm_type"] == "list" and r["perm_item_types"] == ["int"],
           f"{what}.permutation(0) must return a list of ints, got a {r['perm_type']} of {r['perm_item_types']} "
           f"(torch.randperm(...).tolist(), not list(torch.randperm(...)))")
    expect(r["yielded_types"] == ["int"], f"{what}: iterating must yield Python ints, got {r['yielded_types']}")


def test_permutation_is_the_epochs_order(student, gen):
    """permutation(e) is the order of epoch e, whatever epoch the sampler is at: the order a sampler yields after
    set_epoch(e); asking for it does not change the sampler's epoch (a pure function)"""
    n = int(torch.randint(12, 30, (1,), generator=gen))
    seed = draw_seed(gen)
    at = int(torch.randint(0, 3, (1,), generator=gen))
    epochs = [0, 1, 3, 4]
    r = student.call("sampler_permutations", n=n, seed=seed, epochs=epochs, at_epoch=at)
    for e, perm, got in zip(epochs, r["perms"], r["yielded"]):
        is_epoch(got, n, f"ResumableRandomSampler({n}, seed={seed}) after set_epoch({e})")
        expect(perm == got, f"ResumableRandomSampler({n}, seed={seed}) at epoch {at}: permutation({e}) should be "
                            f"\"the order of epoch {e}\", the order a sampler yields after set_epoch({e}), {got}; "
                            f"got {perm}")
    expect(r["after"] == r["at_order"],
           f"ResumableRandomSampler({n}, seed={seed}) after set_epoch({at}), then permutation(e) for e in {epochs}: "
           f"iterating it should still give epoch {at}'s order {r['at_order']} (permutation is \"a pure function of "
           f"seed and epoch\": only set_epoch selects the epoch); got {r['after']}")
