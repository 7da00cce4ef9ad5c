import sys

if sys.argv[1:2] == ["serve"]:
    # A stub writes its state whenever it is stopped: a stop signal that comes while it is still starting waits.
    from toolsurface.harness.signals import hold_signals

    hold_signals()

from toolsurface.harness.cli import main

main(prog_name="toolsurface")
