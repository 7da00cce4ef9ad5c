"""The handler kit: what every stub needs to answer a surface's calls over a fixture of its own domain.

A handler is a function `(project, args) -> answer`, registered by tool name, or with the tool's definition
so that the tool is declared once, beside its handler::

    handlers: Handlers[Desk] = Handlers()

    @handlers.tool(make_tool("ticket_get", "Read a ticket.", Access.READ, {"number": prop("integer")}))
    def ticket_get(desk: Desk, args: Args) -> Any:
        return desk.ticket(args.need("number", args.int("number")))

and `STUB = stub_factory(handlers, load=Desk.load, dump=Desk.dump)` in the surface module makes the
surface servable. Before a handler runs, the server's call check has checked the arguments against the tool's
inputSchema and refused unknown parameters (`stubs.call_check`), and a handler may read only the parameters
the schema declares (another is `UndeclaredParameter`, the stub's error); every answer and refusal goes to the
call log (`CallLog`), and serving writes the project's state on shutdown (`stubs.serve`). The kit brings the rest:

- `Refusal(message, allowed)`: a refusal names what is allowed; one without allowed values is a ValueError,
  the stub author's mistake (answered as an internal error, never as a refusal).
- `refuse_unknown` (unknown field, filter, parameter), `choose` (a value outside its choices),
  `check_version` (a missing or stale version), `names` (a long list, shortened).
- `page` / `check_limit` / `text_part`: lists in pages with limit and an opaque cursor, long text in parts.
- `Args`: typed reads of the arguments (a wrong type is a refusal), `need`, `one_of`, `picked`.
- `Handlers.definitions(kinds)`: the tools declared with their handlers, for the kinds a surface is built for.
- `Clock`: a fixed start and one step per change, so a replayed session gives the same times.
- `load_fixture(path, schema)`: a JSON fixture checked against its JSON Schema (`FixtureError`, one line).
- `load_handlers(path)`: the `handlers` registry of a handler module beside the surface module.
- `not_written(tool)`: the refusal of a handler still to be written (`toolsurface new surface` writes them).
"""

from toolsurface.stubs.calllog import CallLog, CallRecord, read_log
from toolsurface.stubs.kit._args import Args, UndeclaredParameter
from toolsurface.stubs.kit._clock import Clock
from toolsurface.stubs.kit._fixture import FixtureError, load_fixture, read_fixture_json
from toolsurface.stubs.kit._handlers import NOT_WRITTEN, Declared, Handler, Handlers, HandlerStub, not_written
from toolsurface.stubs.kit._module_files import load_handlers
from toolsurface.stubs.kit._paging import TEXT_TAKE, check_limit, page, text_part
from toolsurface.stubs.kit._refusals import check_version, choose, names, refuse_unknown
from toolsurface.stubs.kit._stub_factory import stub_factory
from toolsurface.stubs.paging import DEFAULT_PAGE, MAX_PAGE
from toolsurface.stubs.refusal import Refusal

__all__ = [
    "DEFAULT_PAGE",
    "MAX_PAGE",
    "NOT_WRITTEN",
    "TEXT_TAKE",
    "Args",
    "CallLog",
    "CallRecord",
    "Clock",
    "Declared",
    "FixtureError",
    "Handler",
    "HandlerStub",
    "Handlers",
    "Refusal",
    "UndeclaredParameter",
    "check_limit",
    "check_version",
    "choose",
    "load_fixture",
    "load_handlers",
    "names",
    "not_written",
    "page",
    "read_fixture_json",
    "read_log",
    "refuse_unknown",
    "stub_factory",
    "text_part",
]
