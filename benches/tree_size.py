"""The size of a game's whole tree with chance: walks every history of a game made with
``chance="explicit"`` and counts histories (every node: decisions, chance nodes and ends),
chance nodes, terminal histories and the information states of each seat (by
``information_state_key``). For the small variants the docs list; the tree must be finite.

    python benches/tree_size.py regine \
        '{"players": 2, "deck": [3,0,0,0,0,0,3,3], "build_phase": false, "suits": 2, "max_rounds": 1}'
    python benches/tree_size.py duell-der-drachen \
        '{"territories": 2, "values": 3, "hand_size": 1, "cards_per_side": 1, "face_down_limit": 1}'

It also prints the most entries a seat's record reached (``information_state_string``
lines), beside the slots of ``information_state_shape("all")`` where the game has them.
"""

from __future__ import annotations

import json
import time

import typer

import regalia
from regalia.theory.cfr import information_state_key


def main(game: str, options: str = typer.Argument("{}", help="the game's options as JSON")) -> None:
    """Prints the tree's counts and the time the walk took."""
    g = regalia.make(game, chance="explicit", **json.loads(options))
    counts = {"histories": 0, "chance nodes": 0, "terminal": 0}
    keys: list[set[int]] = [set() for _ in range(g.num_players)]
    longest_record = 0
    start = time.perf_counter()
    stack = [g.new_state(0)]
    while stack:
        state = stack.pop()
        counts["histories"] += 1
        if state.is_terminal:
            counts["terminal"] += 1
            for seat in range(g.num_players):
                longest_record = max(longest_record, state.information_state_string(seat).count("\n"))
            continue
        if state.is_chance_node:
            counts["chance nodes"] += 1
        else:
            seat = state.current_player
            keys[seat].add(information_state_key(state, seat))
        for a in state.legal_actions():
            child = state.clone()
            child.apply(a)
            stack.append(child)
    print(json.dumps(g.options))
    for name, n in counts.items():
        print(f"{name}: {n:,}")
    print("information states per seat:", ", ".join(f"{len(k):,}" for k in keys))
    print(f"longest record: {longest_record:,} entries", end="")
    try:
        (size,) = g.information_state_shape("all")
        print(f" (slots='all' keeps {(size - 1) // (g.information_state_shape(1)[0] - 1):,})")
    except regalia.InvalidArgumentError:
        print(" (no bound on the histories: no slots='all')")
    print(f"{time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    typer.run(main)
