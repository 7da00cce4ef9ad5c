"""toolsurface: measure what an MCP tool list costs connected agents.

One import name: the library and CLI (`toolsurface.harness`), the stub servers (`toolsurface.stubs`), the bundled
surfaces (`toolsurface.surfaces`), the scenarios and recorded studies (`toolsurface.sessions`) and the pytest
plugin (`toolsurface.pytest_plugin`). Importing this package loads none of them.
"""

__version__ = "0.1.0"


def _no_bytecode_under_a_file_size_limit() -> None:
    """Under a file-size limit (`ulimit -f`) Python writes its bytecode cache cut short, and every later import
    of that module fails ("marshal data too short"): a run under a limit must leave the install as it was."""
    try:
        import resource
    except ImportError:  # no such limit where there is no resource module
        return
    import sys

    if resource.getrlimit(resource.RLIMIT_FSIZE)[0] != resource.RLIM_INFINITY:
        sys.dont_write_bytecode = True


_no_bytecode_under_a_file_size_limit()
