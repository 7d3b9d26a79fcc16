"""Benchmarks: ``python -m benchmarks`` runs every ``bench_*.py`` here and prints one table.

Each module defines ``run() -> list[Row]``; figures go into docs/performance.md.
"""
