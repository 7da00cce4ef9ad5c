"""toolsurface: measure what an MCP tool list costs connected agents.

One import name: the library and CLI (`toolsurface.harness`), the stub servers (`toolsurface.stubs`), the bundled
surfaces (`toolsurface.surfaces`), the scenarios and recorded studies (`toolsurface.sessions`) and the pytest
plugin (`toolsurface.pytest_plugin`). Importing this package loads none of them.
"""

__version__ = "0.1.0"
