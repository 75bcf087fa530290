"""``best``: the strongest built-in player of each game, at a budget fit for interactive play
(well under a second a decision on one core)."""

from __future__ import annotations

import copy
import json
from typing import Any

from regalia.agents.base import Agent, call_hook, observe_as_act, probabilities_of
from regalia.agents.exploits import Exploiter
from regalia.agents.ismcts import IsmctsAgent
from regalia.agents.measure import point_mass
from regalia.agents.solver_agent import SolverAgent
from regalia.agents.specs import build_agent
from regalia.core.errors import InvalidOptionError
from regalia.core.view import View
from regalia.theory import solver

#: Per game: the built-in agent that plays best, and its default options (the ones given to
#: ``best`` override them). Measured with the gauntlet, see docs/agents.md.
BEST: dict[str, tuple[str, dict[str, Any]]] = {
    "duo-regna": ("ismcts", {"iterations": 5000}),
    "duo": ("ismcts", {"iterations": 3000}),
    "duell-der-drachen": ("ismcts", {"iterations": 20000}),
    "regine": ("ismcts", {"iterations": 1000}),
    "regnum": ("ismcts", {"iterations": 1000}),
}

#: Per game: default options of its search agent over ``BEST``'s with more than two players.
#: Duo: the others play their first legal action in the search (a fitting card whenever one
#: fits, the same one in the same position) instead of searching for themselves, so only this
#: seat's choices are searched (with four players against three greedy or rule-based players
#: this won clearly more than the plain search, and more than the rollout policy as the
#: model, see docs/agents.md).
MORE_PLAYERS: dict[str, dict[str, Any]] = {"duo": {"opponents": "first-legal"}}

#: An exact player and its options, used for a game when it can solve the game's options
#: (see ``best_for``). Duo Regna: the equilibrium, exploiting the opponent safely.
SOLVERS: dict[str, tuple[str, dict[str, Any]]] = {"duo-regna": ("solver", {"exploit": True})}


def best_for(game: str, options: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
    """The agent ``best`` plays in ``game`` with the game's ``options`` (default: the
    defaults), and that agent's default options: the exact solver where it can solve those
    options (``SOLVERS``), else the search agent of ``BEST`` (with ``MORE_PLAYERS``' options
    when more than two play)."""
    if game in SOLVERS and solver.supports(options):
        return SOLVERS[game]
    try:
        name, defaults = BEST[game]
    except KeyError:
        raise InvalidOptionError(f"no best player for {game!r}; games with one: {', '.join(BEST)}") from None
    if (options or {}).get("players", 2) > 2:
        defaults = {**defaults, **MORE_PLAYERS.get(game, {})}
    return name, defaults


#: The agents ``best`` plays through, by the names ``BEST`` and ``SOLVERS`` give them.
_MAKERS: dict[str, Any] = {"ismcts": IsmctsAgent, "solver": SolverAgent}

#: Iterations of a search given a time budget (``best:time_limit=0.5``) and no count: the
#: budget ends it.
UNTIL_TIME_RUNS_OUT = 10**9


class BestAgent:
    """Plays as the strongest built-in agent of whatever game it is given (see ``best_for``);
    ``options`` are passed on to a search agent (``best:iterations=5000``, ``best:threads=2``)
    over its defaults, and not to the exact solver, which takes none. A time budget
    (``best:time_limit=0.5``, seconds a move) without ``iterations`` searches until it runs
    out. Where the game has one (``regalia.agents.exploits.EXPLOITS``), a move read from the
    opponent's play comes first (not before an exact player, which reads the opponent
    itself). Bad options are refused here, before any game.

    ``action_probabilities(view)`` is a point mass on the exploiting move where there is one,
    else that of the agent it plays (a search's: the distribution of its final choice over
    its seeds, see ``IsmctsAgent``). It remembers the opponent's play during a game
    (``adaptive``), so it is measured as a behaviour strategy, its memory rebuilt by
    replaying the game to each of its information states (``observe``, without searching)."""

    name = "best"
    #: The games it plays: those with a best player.
    games: tuple[str, ...] | None = tuple(BEST)
    #: Its choices depend on what it saw earlier in the game (the exploits' memory).
    adaptive = True

    def __init__(self, seed: int | None = None, **options: Any) -> None:
        if "time_limit" in options and "iterations" not in options:
            options["iterations"] = UNTIL_TIME_RUNS_OUT
        build_agent(_MAKERS, "ismcts", seed, dict(options))  # every search agent of BEST takes these: check them now
        self.seed = seed
        self.options = options
        self._played: tuple[str, str] | None = None  # the game and its options, as JSON
        self._agent: Agent | None = None
        self._exact = False  # whether the agent is an exact player (no EXPLOITS before it)
        self._exploiter = Exploiter()

    def agent_for(self, game: str, options: dict[str, Any] | None = None) -> Agent:
        """The agent this plays in ``game`` with the game's ``options`` (chosen and made once
        for each game and options, not at every decision)."""
        played = (game, json.dumps(options or {}, sort_keys=True))
        if self._agent is None or self._played != played:
            name, defaults = best_for(game, options)
            self._exact = (name, defaults) == SOLVERS.get(game)
            given = {} if self._exact else self.options
            self._agent = build_agent(_MAKERS, name, self.seed, {**defaults, **given})
            self._played = played
        return self._agent

    def limit_time(self, seconds: float) -> None:
        """Stops its search after at most ``seconds`` a move, playing its best so far (its
        own ``time_limit``, if shorter, stays); the exact solver takes no limit."""
        given = self.options.get("time_limit")
        self.options["time_limit"] = seconds if given is None else min(given, seconds)
        self._played = None  # the agent is made again, with the limit, at its next move

    def game_start(self, view: View) -> None:
        """Forgets the last game; passed on to the agent of this game."""
        self._exploiter.forget()
        call_hook(self.agent_for(view.game, view.options), "game_start", view)

    def act(self, view: View) -> int:
        """The exploiting move if there is one, else the strongest agent's choice."""
        agent = self.agent_for(view.game, view.options)
        found = None if self._exact else self._exploiter.move(view)
        return found if found is not None else agent.act(view)

    def observe(self, view: View) -> None:
        """Remembers ``view`` of one of its decisions as ``act`` would, without choosing (no
        search): for a measurement that replays a game to an information state."""
        agent = self.agent_for(view.game, view.options)
        found = None if self._exact else self._exploiter.move(view)
        if found is None:
            observe_as_act(agent, view)

    def action_probabilities(self, view: View) -> dict[int, float]:
        """How likely it is to play each legal action with what it remembers now (its memory
        is left as it is)."""
        agent = self.agent_for(view.game, view.options)
        found = None if self._exact else copy.deepcopy(self._exploiter).move(view)
        return point_mass(found) if found is not None else probabilities_of(agent, view)

    def game_end(self, view: View, returns: list[float]) -> None:
        """Passed on to the agent of this game."""
        call_hook(self.agent_for(view.game, view.options), "game_end", view, returns)
