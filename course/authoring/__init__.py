"""Instructor tools: build notebooks and the release, new topics from templates, contract tables, mutation and forgeable-share benchmarks, the student lab."""
