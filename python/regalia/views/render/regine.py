"""Regine as text (at most 80 columns)."""

from __future__ import annotations

from typing import Any

from regalia.core.observations import RegineObservation, RegineTableCard
from regalia.views.render.words import count, seat_name, seat_verb


def _card(slot: RegineTableCard) -> str:
    """A table card: face up as its name, own face-down card in brackets, hidden as ``??``."""
    if slot["card"] is None:
        return "??"
    return slot["card"] if slot["face_up"] else f"({slot['card']})"


def _seats(seats: list[int], seat: int, players: int) -> str:
    return ", ".join(seat_name(k, seat, players) for k in seats) or "-"


def render(obs: RegineObservation, options: dict[str, Any] | None = None) -> str:
    """Regine from one seat: scores, every table, the own hand, bets and who decides what."""
    seat, n = obs["seat"], len(obs["scores"])
    scores = ", ".join(f"{seat_name(k, seat, n)} {x}" for k, x in enumerate(obs["scores"]))
    dealer = seat_name(obs["dealer"], seat, n)
    lines = [
        f"Regine  round {obs['round'] + (0 if obs['terminal'] else 1)}  dealer: {dealer}  phase: {obs['phase']}",
        f"  scores: {scores}",
        f"  target {obs['target']}   deck {obs['deck_size']}   discard {obs['discard_size']}"
        + ("   NO CHANGES" if obs["no_changes"] else ""),
    ]
    for k in range(n):
        who = "you" if k == seat else f"{seat_name(k, seat, n)} ({obs['hand_sizes'][k]} in hand)"
        table = " ".join(_card(c) for c in obs["table"][k]) or "-"
        lines.append(f"  {who}: {table}")
    lines.append(f"  your hand: {' '.join(obs['hand']) or '-'}")
    if obs["marked"]:
        lines.append(f"  marked for exchange: {' '.join(obs['marked'])}")
    elif obs["marked_count"]:
        exchanging = seat_verb(obs["turn"], seat, n, "are", "is")
        lines.append(f"  {exchanging} exchanging {count(obs['marked_count'], 'card')}")
    if obs["herald_card"]:
        lines.append(f"  the Herald shows you the top card: {obs['herald_card']}")
    if obs["phase"] != "build":
        suits = ("queens", "jesters", "pairs", "game")
        for i, name in enumerate(suits):
            dd = obs["double_down"][i]
            won = obs["suit_winners"][i]
            extra = "" if dd is None else f", doubled by {seat_name(dd, seat, n)}"
            if won is not None:
                extra += f", won by {seat_name(won, seat, n)} (+{obs['suit_points'][i]})"
            lines.append(f"  {name:<8} bets: {_seats(obs['bets'][i], seat, n)}{extra}")
    elif obs["last_combinations"]:
        lines.append("  last round:")
        for k, combo in enumerate(obs["last_combinations"]):
            lines.append(f"    {seat_name(k, seat, n)}: {' '.join(combo)}")
        winners = ", ".join(
            f"{s} {seat_name(w, seat, n)} +{p}"
            for s, w, p in zip(("queens", "jesters", "pairs", "game"), obs["suit_winners"], obs["suit_points"])
            if w is not None
        )
        lines.append(f"    {winners or 'no Suit won'}")
    if obs["current_player"] is not None:
        suit = f" on {obs['suit']}" if obs["suit"] else ""
        lines.append(f"  waiting for {seat_name(obs['current_player'], seat, n)} to decide{suit}: {obs['decision']}")
    return "\n".join(line[:80] for line in lines)
