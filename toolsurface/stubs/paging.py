"""The page sizes of every stub's lists, which the tools' texts state (a surface names them without loading the
handler kit, `stubs.kit`, which pages by them)."""

__all__ = ["DEFAULT_PAGE", "MAX_PAGE"]

MAX_PAGE = 100
DEFAULT_PAGE = 20
