"""The one way a budget is checked: a request in, one outcome out, for every path (one list, a client's
configuration, the configured targets and their configurations, the ratchet)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from toolsurface.harness.budget._list import CheckedList, ListBudget, check_list
from toolsurface.harness.budget._request import (
    BudgetLimits,
    BudgetOutcome,
    BudgetRequest,
    ClientConfiguration,
    ConfiguredTargets,
    OneList,
)
from toolsurface.harness.errors import ToolsurfaceError

if TYPE_CHECKING:
    from collections.abc import Sequence

    from toolsurface.harness.budget._configuration import ConfigBudget
    from toolsurface.harness.config import Config, ServerSet
    from toolsurface.harness.mcp_config import ConfigListing
    from toolsurface.harness.measure import ListCounter

__all__ = ["run_budget"]

UNKNOWN_TOTAL = "what the servers cost together is not known"


def run_budget(request: BudgetRequest) -> BudgetOutcome:
    """Check `request`. An error before anything is found is raised; one after (a client configuration that
    cannot be listed, the ratchet refused by the file) is kept in the outcome, beside what was found."""
    targets = request.targets
    if isinstance(targets, ClientConfiguration):
        return _client_configuration(request, targets)
    if isinstance(targets, OneList):
        return _one_list(request, targets)
    return _configured(request, targets)


def _client_configuration(request: BudgetRequest, targets: ClientConfiguration) -> BudgetOutcome:
    checked = _config_budget(targets.listing, request.limits, request.counters, include=request.include or ())
    problem = checked.totals.problem(UNKNOWN_TOTAL)
    error = ToolsurfaceError(problem) if problem is not None and not targets.keep_going else None
    return BudgetOutcome(configurations=(checked,), error=error)


def _one_list(request: BudgetRequest, targets: OneList) -> BudgetOutcome:
    from toolsurface.harness.live import parse_capabilities

    limits = request.limits
    checked = check_list(
        targets.surface,
        targets.server,
        ListBudget(limits.max_chars, limits.max_tokens, request.include or ()),
        request.answers,
        capabilities=parse_capabilities(request.live.capabilities),
        timeout=request.live.timeout,
        counters=request.counters,
        protocol=request.protocol,
        on_listed=request.on_listed,
    )
    return BudgetOutcome(lists=(checked,))


def _configured(request: BudgetRequest, targets: ConfiguredTargets) -> BudgetOutcome:
    """The targets (an error in them raised), then the configurations or the ratchet (an error kept)."""
    from toolsurface.harness.budget._targets import check_targets
    from toolsurface.harness.config import check_log_for_update, read_config
    from toolsurface.harness.live import parse_capabilities

    live, limits, moves = request.live, request.limits, request.ratchet is not None
    config = read_config(targets.path)
    assert config is not None
    if moves:
        check_log_for_update(config.log_path)  # before a live target is started and measured
    sets = {s.name for s in config.server_sets}
    named = [name for name in targets.names if name not in sets]
    chosen = [config.target(name) for name in named] if targets.names else list(config.targets)
    checked = check_targets(
        config,
        chosen,
        max_chars=limits.max_chars,
        max_tokens=limits.max_tokens,
        capabilities=parse_capabilities(live.capabilities) if live.capabilities is not None else None,
        timeout=live.timeout if live.timeout_given else None,
        count_tokens=moves,
        on_listed=request.on_listed,
        tokens=targets.tokens,
        count_urls=targets.count_urls,
        include=request.include,
        protocol=request.protocol,
        answers=request.answers,
    )
    outcome = BudgetOutcome(
        lists=tuple(CheckedList(item.result, item.source) for item in checked),
        targets=tuple(checked),
        config=config,
        configurations_left_out=moves and bool(config.server_sets),
    )
    try:
        if request.ratchet is not None:
            from toolsurface.harness.budget._ratchet import ratchet

            moved = ratchet(config, checked, request.ratchet.reason, allow_raise=request.ratchet.allow_raise)
            return replace(outcome, ratchet=moved)
    except ToolsurfaceError as error:
        return replace(outcome, error=error)
    if not config.server_sets:
        return outcome
    try:
        counters = targets.set_counters()
    except Exception as error:  # the maker's own (a usage error of its options), said after the targets too
        return replace(outcome, error=error)
    return _server_sets(request, config, targets.names, counters, outcome)


def _server_sets(
    request: BudgetRequest,
    config: Config,
    names: tuple[str, ...],
    counters: Sequence[ListCounter],
    outcome: BudgetOutcome,
) -> BudgetOutcome:
    """Each configured client configuration (`mcp-config = FILE`, or those `names` names) held to its budgets,
    in order, until one cannot be measured."""
    held: list[ConfigBudget] = []
    for server_set in config.server_sets:
        if names and server_set.name not in names:
            continue
        try:
            limits = BudgetLimits(
                server_set.max_chars, server_set.max_tokens, server_set.max_server_chars, server_set.max_server_tokens
            )
            checked = _config_budget(_listing(request, server_set), limits, counters, name=server_set.name)
        except ToolsurfaceError as error:
            return replace(outcome, configurations=tuple(held), error=error)
        held.append(checked)
        problem = checked.totals.problem(UNKNOWN_TOTAL)
        if problem is not None:
            return replace(outcome, configurations=tuple(held), error=ToolsurfaceError(problem))
    return replace(outcome, configurations=tuple(held))


def _listing(request: BudgetRequest, server_set: ServerSet) -> ConfigListing:
    """How a configured client configuration is listed: its own timeout, else the command line's."""
    from toolsurface.harness.live import parse_capabilities
    from toolsurface.harness.mcp_config import ConfigListing

    live = request.live
    timeout = live.timeout if server_set.timeout is None else server_set.timeout
    capabilities = parse_capabilities(live.capabilities)
    return ConfigListing(server_set.mcp_config, server_set.env_from_shell, 4, timeout, capabilities, request.protocol)


def _config_budget(
    listing: ConfigListing,
    limits: BudgetLimits,
    counters: Sequence[ListCounter],
    *,
    name: str | None = None,
    include: tuple[str, ...] = (),
) -> ConfigBudget:
    """The configuration's servers listed at once, measured and held to the request's limits (all together in
    chars and tokens, each one in chars and tokens)."""
    from toolsurface.harness.budget._configuration import budget_config

    return budget_config(
        listing,
        counters=counters,
        name=name,
        max_chars=limits.max_chars,
        max_tokens=limits.max_tokens,
        max_server_chars=limits.max_server_chars,
        max_server_tokens=limits.max_server_tokens,
        include=include,
    )
