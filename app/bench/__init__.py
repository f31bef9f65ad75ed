"""Benchmarks: commands that print a table and write a flat JSON object (never timed tests)."""
