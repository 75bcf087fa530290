"""The whole game tree, chance included, of a small Regnum variant with explicit chance:
histories (every node), terminal histories, and information states (distinct
``information_state_key`` of the seat to move at decision nodes).

    python benches/regnum_small_variant.py [MAX_TURNS]

The variant (documented in docs/games/regnum.md): two players, 20 single green resource
cards (every blind draw has one outcome), 8 characters, two castles and three standards (all
in play), ``max_turns`` 1 by default."""

from __future__ import annotations

import sys
import time
from typing import Any

import regalia
from regalia.theory.benchmarks import regnum_card_set
from regalia.theory.cfr import information_state_key

#: Characters of the default card set kept (King and Queen, and six that green cards pay for).
KEPT = ("King", "Queen", "Squire", "Herald", "Fool", "Archer", "Court Wizard", "Juggler")
#: The King, the Queen and six characters green cards cannot pay for: the one turn of
#: ``max_turns=1`` buys nothing (54,571 histories), the smallest tree found.
UNAFFORDABLE = ("King", "Queen", "Chancellor", "Bishop", "Lady-in-waiting", "General", "Minstrel", "Miller")


def small_card_set(kept: tuple[str, ...] = KEPT) -> dict[str, Any]:
    """The variant's card set, cut from the default one, with the characters ``kept`` (as the
    benchmark variants cut theirs: ``regalia.theory.benchmarks.regnum_card_set``)."""
    return regnum_card_set(kept)


def main() -> None:
    max_turns = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    game = regalia.make("regnum", chance="explicit", card_set=small_card_set(), max_turns=max_turns)
    start = time.perf_counter()
    histories = terminals = 0
    keys: set[tuple[int, int]] = set()
    stack = [game.new_state(0)]
    while stack:
        state = stack.pop()
        histories += 1
        if state.is_terminal:
            terminals += 1
            continue
        if not state.is_chance_node:
            seat = state.current_player
            keys.add((seat, information_state_key(state, seat)))
        for a in state.legal_actions():
            child = state.clone()
            child.apply(a)
            stack.append(child)
    print(
        f"max_turns={max_turns}: {histories:,} histories, {terminals:,} terminal, "
        f"{len(keys):,} information states ({time.perf_counter() - start:.1f} s)"
    )


if __name__ == "__main__":
    main()
