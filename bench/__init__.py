"""Benchmarks: each script prints its figures (README lists the latest)."""
