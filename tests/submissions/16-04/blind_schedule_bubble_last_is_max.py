"""bubble_fraction takes T from the last tuple's time step, assuming the list is sorted (the text says sorted
or not)."""
EXPECT = {'schedule': 'fail'}
CELLS = {
    'schedule_impl': '''
def _greedy(S, M, one_f_one_b, cap_slack=0, forward_first=False):
    done, ops, nxt_f, nxt_b = set(), [], [0] * S, [0] * S
    t = 0
    while len(ops) < 2 * S * M:
        now = []
        for s in range(S):
            f, b = nxt_f[s], nxt_b[s]
            b_ready = b < M and (("B", s + 1, b) in done if s < S - 1 else ("F", s, b) in done)
            f_ready = f < M and (s == 0 or ("F", s - 1, f) in done)
            if one_f_one_b:
                f_ready = f_ready and f - b < S - s + cap_slack
            else:
                b_ready = b_ready and f == M
            if forward_first and f_ready:
                now.append((t, s, "F", f))
                nxt_f[s] += 1
            elif b_ready:
                now.append((t, s, "B", b))
                nxt_b[s] += 1
            elif f_ready:
                now.append((t, s, "F", f))
                nxt_f[s] += 1
        done.update((k, s, m) for _, s, k, m in now)
        ops += now
        t += 1
    return ops


def gpipe_schedule(S, M):
    return _greedy(S, M, False)


def one_f_one_b_schedule(S, M):
    return _greedy(S, M, True, 0, False)


def bubble_fraction(schedule, S):
    T = schedule[-1][0] + 1
    return 1.0 - len(schedule) / (S * T)
''',
}
