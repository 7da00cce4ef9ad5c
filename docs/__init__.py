"""The docs' own tooling: what writes a page from the code (not in the wheel)."""
