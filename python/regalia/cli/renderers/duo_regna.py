"""Duo Regna as text."""

from __future__ import annotations

from typing import Any


def render(obs: dict[str, Any]) -> str:
    """Duo Regna from one seat: the dragon track, the hands, the last reveal."""
    seat = obs["seat"]
    track = ["  ", "  ", "  "]
    if obs["dragon"] is not None:
        pos = 1 if obs["dragon_side"] is None else (0 if obs["dragon_side"] == 0 else 2)
        track[pos] = f"D{obs['dragon']}"
    lines = [
        f"Round {obs['round'] + 1}   dragons captured: seat 0 {obs['captured'][0]}, seat 1 "
        f"{obs['captured'][1]}   dragons in pile: {obs['dragons_in_pile']}",
        f"  seat 0 side [{track[0]}] centre [{track[1]}] [{track[2]}] seat 1 side",
    ]
    if obs["last_reveal"]:
        lines.append(f"  last reveal: seat 0 showed {obs['last_reveal'][0]}, seat 1 showed {obs['last_reveal'][1]}")
    if obs["committed"]:
        mine = f" ({obs['my_choice']})" if obs["my_choice"] else ""
        lines.append(f"  seat 0 has chosen a card{mine}")
    lines.append(f"  your hand (seat {seat}): {' '.join(obs['hand'])}")
    lines.append(f"  opponent's cards:      {' '.join(obs['opponent_hand'])}")
    return "\n".join(lines)
