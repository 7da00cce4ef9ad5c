"""toolsurface: measure what an MCP tool list costs connected agents.

One import name: the library and CLI (`toolsurface.harness`), the stub servers (`toolsurface.stubs`), the bundled
surfaces (`toolsurface.surfaces`), the scenarios and recorded studies (`toolsurface.sessions`) and the pytest
plugin (`toolsurface.pytest_plugin`). Importing this package loads none of them.
"""

__version__ = "0.1.0"


def _a_program_of_ours() -> bool:
    """Whether this process is one of toolsurface's own programs (the `toolsurface` command, `python -m
    toolsurface...`, a stub or fork server it starts), not a user's program that imports the library."""
    import os
    import sys

    argv: list[str] = list(sys.orig_argv)
    module = next((argv[i + 1] for i, arg in enumerate(argv[:-1]) if arg == "-m"), None)
    if module is not None:
        return module == "toolsurface" or module.startswith("toolsurface.")
    return os.path.basename(sys.argv[0]) in ("toolsurface", "toolsurface.exe")


def _no_bytecode_under_a_file_size_limit() -> None:
    """Under a file-size limit (`ulimit -f`) Python writes its bytecode cache cut short, and every later import
    of that module fails ("marshal data too short"): a run of ours under a limit must leave the install as it
    was. A program that imports the library keeps its own setting."""
    try:
        import resource
    except ImportError:  # no such limit where there is no resource module
        return
    import sys

    if _a_program_of_ours() and resource.getrlimit(resource.RLIMIT_FSIZE)[0] != resource.RLIM_INFINITY:
        sys.dont_write_bytecode = True


_no_bytecode_under_a_file_size_limit()
