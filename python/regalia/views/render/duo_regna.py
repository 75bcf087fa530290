"""Duo Regna as text: the dragon track, the captures, the last reveal and both hands."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from regalia.core.observations import DuoRegnaObservation
from regalia.views.render.symbols import glyph
from regalia.views.render.words import count


def _card(name: str) -> str:
    """A card as it is printed: ``6♚`` / ``6♛`` for King and Queen (``6K`` / ``6Q`` plain)."""
    if name == "6 king":
        return "6" + glyph("♚", "K")
    if name == "6 queen":
        return "6" + glyph("♛", "Q")
    return name


def _cards(names: list[str], style: str) -> Text:
    return Text("  ").join(Text(_card(n), style=style) for n in names) if names else Text("none", style="dim")


def _dragons(count: int) -> str:
    """A count of dragons, with one symbol per dragon on a colour terminal."""
    return (f"{count} " + glyph("◆", "") * count).rstrip()


def render(obs: DuoRegnaObservation, options: dict[str, Any] | None = None) -> Text:
    """Duo Regna from one seat: captures, the dragon's place, the last reveal, the hands."""
    seat = obs["seat"]
    other = 1 - seat
    mine, theirs = obs["captured"][seat], obs["captured"][other]
    out = Text()
    out.append(
        f"Game over after round {obs['round']}" if obs["terminal"] else f"Round {obs['round'] + 1}", style="bold"
    )
    out.append(f"   dragon cards left in the pile: {obs['dragons_in_pile']}\n")
    out.append("  Dragons won   ")
    out.append(f"you {_dragons(mine)}", style="bold cyan")
    out.append("   ")
    out.append(f"the opponent {_dragons(theirs)}", style="bold red")
    out.append("\n")
    out.append_text(_track(obs, seat))
    if obs["last_reveal"]:
        shown = obs["last_reveal"]
        out.append("  Last reveal   you ")
        out.append(_card(shown[seat]), style="bold cyan")
        out.append("  against  ")
        out.append(_card(shown[other]), style="bold red")
        out.append("\n")
    if obs["committed"]:
        if obs["my_choice"]:
            out.append(f"  You have chosen {_card(obs['my_choice'])}; the opponent chooses now.\n", style="italic")
        else:
            out.append("  The opponent has chosen a card, face down.\n", style="italic")
    out.append("  Your hand     ")
    out.append_text(_cards(obs["hand"], "bold cyan"))
    out.append("\n  Their cards   ")
    out.append_text(_cards(obs["opponent_hand"], "red"))
    return out


def _track(obs: DuoRegnaObservation, seat: int) -> Text:
    """The three places of the dragon, from your side to the opponent's."""
    places = ["your side", "centre", "their side"]
    where, dragon = None, obs["dragon"]
    if dragon is not None:
        side = obs["dragon_side"]
        where = 1 if side is None else (0 if side == seat else 2)
    track = Text("  Dragon        ")
    for i, place in enumerate(places):
        if i == where and dragon is not None:
            track.append(f"[{place}: {count(dragon, 'dragon')}]", style="bold yellow")
        else:
            track.append(f"[{place}]", style="dim")
        track.append(" " if i < 2 else "\n")
    return track
