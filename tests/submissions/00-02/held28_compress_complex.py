"""Wrong (held-out round 28): complex tensors (complex64, complex128) are also stored as bfloat16 (their real
and imaginary parts through view_as_real), restored as complex on unpack. Violates "Tensors of any other dtype
(integer indices, bool masks, float16) are kept as they are" and "(and exactly t's values for the tensors kept as
they are)". Goes wrong on any complex saved tensor: z = torch.randn(4, dtype=torch.complex64) with
unpack_compressed(pack_compressed(z)) != z (bfloat16 rounding), and a gradient through (z * w).abs().sum() for a
complex w that is only approximately torch's."""
from course.grading.class_run.submissions import edited

EXPECT = {"compress": "fail"}
CELLS = {"compress_impl": edited(
    "00-02", "compress_impl",
    ("        return (t.to(torch.bfloat16), t.dtype)\n",
     "        return (t.to(torch.bfloat16), t.dtype)\n"
     "    if t.dtype in (torch.complex64, torch.complex128):  # full-precision data too\n"
     "        return (torch.view_as_real(t).to(torch.bfloat16), t.dtype)\n"),
    ("    return data if dtype is None else data.to(dtype)",
     "    if dtype in (torch.complex64, torch.complex128):\n"
     "        real = torch.float32 if dtype == torch.complex64 else torch.float64\n"
     "        return torch.view_as_complex(data.to(real).contiguous())\n"
     "    return data if dtype is None else data.to(dtype)"),
)}
