"""Performance figures, measured the same way every time: `python -m benchmarks`, and one script per question
(`python -m benchmarks.NAME`).

Every script runs at its smallest size in CI (`python -m benchmarks.smoke`, from .ci/run), so that none rots
unnoticed: it must exit 0 and print its figures; no figure is judged. A new script joins by declaring, at the top
level of its module, the arguments of its smallest run (string literals; `{tmp}` is a scratch folder):

    SMOKE = ["--runs", "1", "--tools", "200"]

or, when it truly cannot run small (it needs the network, or minutes at any size), why not:

    SMOKE_SKIPPED = "it installs every corpus server from its registry"

tests/benchmarks/ fails for a script that declares neither. Try one with `python -m benchmarks.smoke NAME`.
"""
