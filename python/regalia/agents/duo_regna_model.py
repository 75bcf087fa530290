"""Duo Regna: who the opponent is, and how far to exploit her without risking more than she
gave away.

Both hands are public by counting the cards, so every reveal shows which card she chose
among the ones she held. A few kinds of player are weighed against those choices
(``TYPES``), each predicting her next card from what both seats see:

- ``uniform``: she draws each of her unplayed cards with equal chance (level 0);
- ``level-1``: she plans the rest of the hand against a uniform opponent, i.e. against me
  (``regalia.theory.solver.against_uniform`` from her seat), after first watching my reveals for a
  fixed order of play to exploit (``rules.duo_regna.exploit`` from her seat), among equal
  cards one at random;
- ``fixed-order``: she always plays the highest card she holds in one fixed priority order
  of the nine cards (the order learnt from her reveals; among the cards it cannot yet rank,
  any one);
- ``equilibrium``: she plays the game's equilibrium (the solver's strategy from her seat).

The posterior over the types is Bayes' rule, each type's prediction trembled (a player
sometimes errs: ``TREMBLE`` of the weight on a uniformly drawn card), with a fixed share of
the weight going back to the prior each round (``SWITCH``: she may change her kind of play,
and a long record must not make one miss count for nothing).

The move is a **safe** best response (Ganzfried and Sandholm's safe opponent exploitation):
the equilibrium of the round's matrix game (entries: the equilibrium values of the next
states) guarantees its value ``v``; playing against her predicted card instead risks the
amount by which its worst column falls below ``v``. The player keeps a budget, the sum over
the rounds so far of what its strategy was worth against the card she actually showed,
less ``v``: her mistakes against the equilibrium add to it, and so does every round it
exploited her rightly. It mixes the equilibrium with the best response to the predicted
card, as far towards the best response as the budget covers, so the budget never falls
below zero whatever she does. The best response is the row of the matrix game that does
best against the predicted mixture, or, while the fixed-order type carries most of the
weight and her order tells the rest of her hand, the card of the exact plan against that
sequence (``rules.duo_regna.plan``).

The budget starts at a small stake of the player's own (``STAKE``), risked only once one
type carries most of the weight (``CONFIDENT``); her gifts may be spent at once. So against
any opponent the expected return is at least the game's value (zero from the start) less
the stake, up to the equilibrium's own exploitability: a game of equal players is lost at
worst 2.5 percentage points more often than won, and only by one who first convinces the
model.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any

from regalia.agents.rules import duo_regna
from regalia.agents.rules.duo_regna import CARDS, OrderModel
from regalia.core.view import View
from regalia.theory import solver

#: The kinds of card: X, 0, ..., 5 by their ids, and 7 for both 6s.
KINDS = 8
#: The kinds of player weighed (see the module comment).
TYPES = ("uniform", "level-1", "fixed-order", "equilibrium")
#: The share of a type's prediction given to a uniformly drawn card (errors of play).
TREMBLE = 0.02
#: The share of the weight given back to the prior after each round (changes of play).
SWITCH = 0.02
#: A type's weight from which a plan of the rest of the hand against it (where there is one)
#: is the best response.
PLAN_WEIGHT = 0.5
#: What the player risks of its own at the start of a game (expected return: STAKE / 2 of
#: the chance to win), before her mistakes have paid for anything.
STAKE = 0.05
#: The stake is risked only once one type carries this much of the weight; her gifts any time.
CONFIDENT = 0.8
#: A best response must beat the equilibrium against the prediction by more than this.
MIN_GAIN = 1e-9

Distribution = list[float]  # probability by kind


def kind_of(card: int) -> int:
    """The kind of card ``card`` (an action id): the two 6s are one kind."""
    return min(card, KINDS - 1)


def _cards(names: list[str]) -> list[int]:
    return [CARDS.index(n) for n in names]


def _by_kind(cards: list[int], weights: list[float] | None = None) -> Distribution:
    """The distribution over kinds of drawing one of ``cards`` (uniformly, or by weight)."""
    out = [0.0] * KINDS
    ws = weights if weights is not None else [1.0] * len(cards)
    total = sum(ws)
    for c, w in zip(cards, ws, strict=True):
        out[kind_of(c)] += w / total
    return out


def her_observation(observation: dict[str, Any]) -> dict[str, Any]:
    """What the other seat saw at the start of this round, built from ``observation`` (of
    the seat to move) alone: the hands swapped, her seat to move, nothing committed. Her
    committed card, if any, is still in her hand in ``observation``, so this is public."""
    her = 1 - int(observation["seat"])
    return {
        **observation,
        "seat": her,
        "current_player": her,
        "hand": observation["opponent_hand"],
        "opponent_hand": observation["hand"],
        "committed": False,
        "my_choice": None,
    }


@dataclass
class Beliefs:
    """The posterior over ``TYPES`` and what each type predicted for the round in play."""

    weights: dict[str, float] = field(default_factory=lambda: dict.fromkeys(TYPES, 1 / len(TYPES)))
    predictions: dict[str, Distribution] = field(default_factory=dict)
    #: Her reveals each type predicted with most weight, and missed, so far.
    hits: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TYPES, 0))
    misses: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TYPES, 0))

    def likelihood(self, name: str, kind: int, uniform: Distribution) -> float:
        """How likely type ``name`` made her play ``kind`` this round (trembled)."""
        return (1 - TREMBLE) * self.predictions[name][kind] + TREMBLE * uniform[kind]

    def saw(self, kind: int, uniform: Distribution) -> None:
        """Bayes' rule for her reveal of ``kind``, then the fixed share back to the prior."""
        if not self.predictions:
            return
        for name in TYPES:
            predicted = self.predictions[name]
            if max(predicted) > 0:
                best = predicted.index(max(predicted))
                self.hits[name] += best == kind
                self.misses[name] += predicted[kind] == 0
        posterior = {name: self.weights[name] * self.likelihood(name, kind, uniform) for name in TYPES}
        total = sum(posterior.values())
        self.weights = {name: (1 - SWITCH) * posterior[name] / total + SWITCH / len(TYPES) for name in TYPES}

    def mixture(self, uniform: Distribution) -> Distribution:
        """Her card's distribution by kind, over the types by their weights (trembled)."""
        out = [0.0] * KINDS
        for name in TYPES:
            w = self.weights[name]
            for k in range(KINDS):
                out[k] += w * ((1 - TREMBLE) * self.predictions[name][k] + TREMBLE * uniform[k])
        return out


@dataclass
class Memory:
    """What the player keeps during one game."""

    beliefs: Beliefs = field(default_factory=Beliefs)
    #: Her fixed priority order as far as her reveals show it (the ``fixed-order`` type).
    order: OrderModel = field(default_factory=OrderModel)
    #: The level-1 type's own memory (its watch over my reveals for a fixed order).
    level1: dict[str, Any] = field(default_factory=dict)
    #: What the opponent's mistakes and the rounds exploited rightly have paid so far.
    budget: float = STAKE
    #: The last round played: its number, her cards, the matrix game and my strategy.
    last: tuple[int, list[int], solver.MatrixGame, list[float]] | None = None
    #: Rounds in which the player left the equilibrium.
    exploited: int = 0


def _uniform(held: list[int]) -> Distribution:
    return _by_kind(held)


def predictions(view: View, memory: Memory) -> dict[str, Distribution]:
    """Each type's distribution of her card this round, by kind."""
    obs = view.observation
    held = _cards(obs["opponent_hand"])
    her = her_observation(obs)
    out: dict[str, Distribution] = {"uniform": _uniform(held)}

    # Her cards as her actions (an action id means the same card for either seat).
    her_view = replace(
        view,
        seat=her["seat"],
        observation=her,
        legal_actions=sorted(held),
        action_names=[CARDS[c] for c in sorted(held)],
    )
    planned = duo_regna.exploit(her_view, memory.level1)
    if planned is not None:
        out["level-1"] = _by_kind([planned])
    else:
        values = solver.against_uniform(her, view.options)
        top = max(values.values())
        out["level-1"] = _by_kind([c for c in held if values[c] >= top - 1e-12])

    order = memory.order
    if order.consistent:
        first = [c for c in held if not any(order.above[d] >> c & 1 for d in held if d != c)]
        out["fixed-order"] = _by_kind(first)
    else:
        out["fixed-order"] = [0.0] * KINDS  # refuted: only a tremble explains her now

    game = solver.matrix_game(her, view.options)
    equilibrium = [0.0] * KINDS
    for kind, p in zip(game.mine, game.row, strict=True):
        equilibrium[kind] += p
    out["equilibrium"] = equilibrium
    return out


def _worth(game: solver.MatrixGame, strategy: list[float], column: int) -> float:
    """My expected return with ``strategy`` (by row) against her ``column``."""
    return sum(p * game.payoff[i][column] for i, p in enumerate(strategy))


def safe_response(
    game: solver.MatrixGame, predicted: Distribution, budget: float, planned: int | None = None
) -> list[float]:
    """My strategy over ``game.mine``: the equilibrium moved towards the best response to
    ``predicted`` (her card by kind) as far as ``budget`` covers the risk (see the module
    comment). The best response is the kind ``planned`` if given, else the row that does
    best against ``predicted`` in ``game``."""
    eq = list(game.row)
    cols = range(len(game.theirs))
    against = [predicted[k] for k in game.theirs]
    worth = [sum(game.payoff[i][j] * against[j] for j in cols) for i in range(len(game.mine))]
    best = max(range(len(game.mine)), key=lambda i: worth[i]) if planned is None else game.mine.index(planned)
    if worth[best] - sum(p * w for p, w in zip(eq, worth, strict=True)) <= MIN_GAIN or budget <= 0:
        return eq
    floor = game.value - budget
    share = 1.0
    for j in cols:
        a, b = _worth(game, eq, j), game.payoff[best][j]
        if b < floor:
            share = min(share, max(0.0, a - floor) / (a - b))
    mixed = [(1 - share) * p for p in eq]
    mixed[best] += share
    return mixed


def _my_cards(view: View) -> dict[int, int]:
    """My legal actions by the card each plays (read from its ``action_info``)."""
    return {CARDS.index(view.action_info(a)["card"]): a for a in view.legal_actions}


def _planned(view: View, memory: Memory, held: list[int], mine: dict[int, int]) -> int | None:
    """The kind to play by a plan of the rest of the hand against the type that carries most
    of the weight, where there is one: against a uniform player the planner's best card,
    against a fixed order that tells her whole rest of the hand the plan against it; else
    None."""
    weights = memory.beliefs.weights
    if weights["uniform"] >= PLAN_WEIGHT:
        values = solver.against_uniform(view.observation, view.options)
        return kind_of(max(mine, key=lambda c: values[mine[c]]))
    if weights["fixed-order"] < PLAN_WEIGHT:
        return None
    sequence = memory.order.sequence(held)
    if sequence is None:
        return None
    obs, me = view.observation, view.seat
    side = 0 if obs["dragon_side"] is None else (1 if obs["dragon_side"] == me else -1)
    dragon = float(obs["dragon"] or duo_regna.NEXT_DRAGON)
    return kind_of(duo_regna.plan(tuple(mine), tuple(sequence), side, dragon))


def decide(view: View, memory: Memory, rng: random.Random) -> int:
    """The card to play: learn from her last reveal, predict her card, answer safely."""
    kinds, strategy, mine = _strategy(view, memory)
    kind = rng.choices(kinds, weights=strategy)[0]
    return mine[rng.choice([c for c in sorted(mine) if kind_of(c) == kind])]


def distribution(view: View, memory: Memory) -> dict[int, float]:
    """How likely ``decide`` is to play each legal action with ``memory`` (which it updates
    as ``decide`` does): each kind of card by the safe strategy, the cards of a kind alike."""
    kinds, strategy, mine = _strategy(view, memory)
    out: dict[int, float] = {}
    for kind, p in zip(kinds, strategy, strict=True):
        cards = [c for c in sorted(mine) if kind_of(c) == kind]
        for c in cards:
            out[mine[c]] = out.get(mine[c], 0.0) + p / len(cards)
    return out


def _strategy(view: View, memory: Memory) -> tuple[Any, list[float], dict[int, int]]:
    """Learns from her last reveal and predicts her card: the kinds of card this seat may
    play, the safe strategy over them, and its legal actions by card."""
    obs, me = view.observation, view.seat
    held = _cards(obs["opponent_hand"])
    last = memory.last
    if last is not None and obs["round"] == last[0] + 1 and obs["last_reveal"] is not None:
        _, was_held, game, strategy = last
        card = CARDS.index(obs["last_reveal"][1 - me])
        kind = kind_of(card)
        memory.beliefs.saw(kind, _uniform(was_held))
        memory.order.saw(was_held, card)
        memory.budget += _worth(game, strategy, game.theirs.index(kind)) - game.value
    memory.beliefs.predictions = predictions(view, memory)
    predicted = memory.beliefs.mixture(_uniform(held))
    game = solver.matrix_game(obs, view.options)
    known = max(memory.beliefs.weights.values()) >= CONFIDENT
    spendable = memory.budget if known else memory.budget - STAKE
    mine = _my_cards(view)
    strategy = safe_response(game, predicted, spendable, _planned(view, memory, held, mine))
    memory.exploited += strategy != list(game.row)
    memory.last = (obs["round"], held, game, strategy)
    return game.mine, strategy, mine
