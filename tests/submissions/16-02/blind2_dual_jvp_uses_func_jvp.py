"""Calls torch.func.jvp, which the text forbids (write it with torch.autograd.forward_ad)."""
EXPECT = {'dual_jvp': 'fail'}
CELLS = {
    'dual_jvp_impl': '''
def dual_jvp(f, primals, tangents):
    out, jv = jvp(f, tuple(primals), tuple(tangents))
    return out, jv
''',
}
