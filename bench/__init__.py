"""Benchmarks that print ratios measured in one run (see bench/README.md)."""
