from toolsurface.harness.cli import main

main()
