"""The ``regalia`` command line: list games and play them against built-in agents."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

import regalia
from regalia.agents import AGENTS, View, make_agent
from regalia.cli.renderers import render
from regalia.errors import RegaliaError
from regalia.match import play as play_match

app = typer.Typer(
    help="Regalia: five royal card games. Try: regalia play duo-regna --seats human,random",
    no_args_is_help=True,
    add_completion=False,
)


def _parse_option(text: str) -> tuple[str, Any]:
    if "=" not in text:
        raise typer.BadParameter(f"options are key=value, got {text!r}")
    key, raw = text.split("=", 1)
    try:
        value: Any = json.loads(raw)
    except ValueError:
        value = [json.loads(x) for x in raw.split(",")] if "," in raw else raw
    return key.strip(), value


class HumanAgent:
    """Asks at the terminal: a number from the list or an action's name."""

    name = "human"

    def act(self, view: View) -> int:
        """Shows the board from this seat and reads a choice until it is legal."""
        typer.echo("")
        typer.echo(render(view.game, view.observation))
        for i, name in enumerate(view.action_names, 1):
            typer.echo(f"  {i:>2}. {name}")
        while True:
            try:
                text = input(f"seat {view.seat}, your move: ").strip()
            except EOFError:
                raise typer.Exit(code=1) from None
            if text.isdigit() and 1 <= int(text) <= len(view.legal_actions):
                return view.legal_actions[int(text) - 1]
            wanted = [a for a, n in zip(view.legal_actions, view.action_names) if n.lower() == text.lower()]
            wanted = wanted or [
                a for a, n in zip(view.legal_actions, view.action_names) if n.lower().startswith(text.lower())
            ]
            if text and len(wanted) == 1:
                return wanted[0]
            typer.echo(f"  '{text}' is not one of the moves above; type its number or its name.")


@app.command("games")
def games_cmd(
    as_json: Annotated[bool, typer.Option("--json", help="print the list as JSON")] = False,
) -> None:
    """List the games with their player counts and options."""
    listing = regalia.games()
    if as_json:
        typer.echo(json.dumps(listing, indent=2))
        return
    for g in listing:
        players = (
            f"{g['min_players']}-{g['max_players']}" if g["min_players"] != g["max_players"] else str(g["min_players"])
        )
        typer.echo(f"{g['name']:<20} {g['title']:<20} players: {players}")
        for o in g["options"]:
            typer.echo(f"    {o['name']} = {json.dumps(o['default'])}: {o['help']}")


SEATS_HELP = "comma-separated agents, one per seat: human, " + ", ".join(AGENTS)


@app.command("play")
def play_cmd(
    game: Annotated[str, typer.Argument(help="game id, e.g. duo-regna (see: regalia games)")],
    seats: Annotated[
        str, typer.Option(help="comma-separated agents per seat: human, " + ", ".join(AGENTS))
    ] = "human,random",
    seed: Annotated[int, typer.Option(help="the game's seed")] = 0,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help="game option key=value")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the match record as JSON")] = False,
) -> None:
    """Play a game. Example: regalia play duo-regna --seats random,random --seed 7"""
    try:
        options = dict(_parse_option(o) for o in option or [])
        names = [s.strip() for s in seats.split(",")]
        g = regalia.make(game, **options)
        if len(names) != g.num_players:
            raise typer.BadParameter(f"{g.name} needs {g.num_players} seats, got {len(names)}")
        agents = [HumanAgent() if n == "human" else make_agent(n, seed + i) for i, n in enumerate(names)]
        record = play_match(g, agents, seed=seed)
    except RegaliaError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(code=2) from None
    if as_json:
        typer.echo(record.to_json())
        return
    final = record.replay()
    typer.echo(render(g.name, final.observation(0)))
    typer.echo(f"\n{g.title} over after {len(record.actions)} actions.")
    for i, (name, r, sc) in enumerate(zip(record.agents, record.returns, record.scores)):
        verdict = "wins" if r > 0 else ("loses" if r < 0 else "draws")
        typer.echo(f"  seat {i} ({name}): {verdict}, score {sc}")


def main() -> None:
    """Entry point of the ``regalia`` script."""
    app()
