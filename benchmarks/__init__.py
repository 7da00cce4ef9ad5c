"""Performance figures, measured the same way every time: `python -m benchmarks`."""
