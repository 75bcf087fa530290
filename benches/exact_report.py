"""Exact game theory on small variants with explicit chance: the size of each game's tree
(histories and information sets, counted by the tree walk, or the estimate a too-large tree
is refused with), exploitability against iterations and against seconds for CFR+ and
both MCCFR samplers on one small variant of each of Duo Regna, Regine, Regnum and Duell der
Drachen, as tables and PNGs drawn with Pillow (``--game NAME``: that game's rows and runs
only), and
(``--openspiel``) CFR+ and exploitability side by side with OpenSpiel's Python ones on the
adapter (OpenSpiel's C++ algorithms cannot run a game written in Python).

    python benches/exact_report.py --seconds 60 --out docs/game-theory
    python benches/exact_report.py --openspiel-only
    python benches/exact_report.py --seconds 30 --out docs/game-theory --write

``--write [DIR]`` also writes the data files of the sizes table (exact-tree-sizes) and of the
side-by-side run (exact-openspiel) (``benches/results_data.py``; DIR defaults to
docs/results/data), from which ``python benches/docs_tables.py`` rewrites
docs/results/exploitability.md's tables (its convergence table reads ``--out``'s JSON).
Seconds are the solver's own (``run`` calls), not the exact evaluations between them.
MCCFR runs from seed 1; CFR+ is deterministic.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import sys
import time
from pathlib import Path
from typing import Any

import regalia
from regalia import _core
from regalia.core.errors import GameTooLargeError
from regalia.theory import exact
from regnum_small_variant import KEPT, UNAFFORDABLE, small_card_set

sys.path.insert(0, str(Path(__file__).resolve().parent))
from results_data import Provenance, add_write_option, write  # noqa: E402

#: Regnum's small card sets by the name the tables show (see benches/regnum_small_variant.py).
CARD_SETS = {
    "8 characters green cannot pay for": small_card_set(UNAFFORDABLE),
    "8 characters, 6 green pays for": small_card_set(KEPT),
}
#: Regine's small variant: two players, one round, no build phase.
REGINE = {"players": 2, "build_phase": False, "max_rounds": 1}
#: Duell der Drachen's small board: red and blue, a card each, one card a side, one face down.
DUELL = {"territories": 2, "hand_size": 1, "cards_per_side": 1, "face_down_limit": 1}
#: Small variants of the games that have explicit chance (the smallest options allow, for
#: the games whose options cannot make the tree small).
VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("duo-regna", {"dragon_deck": [1, 1], "dragons_to_win": 1, "max_rounds": 1}),
    ("duo-regna", {"dragon_deck": [2, 1], "dragons_to_win": 2, "max_rounds": 2}),
    ("duo-regna", {"dragon_deck": [1, 1], "dragons_to_win": 2, "max_rounds": 3}),
    ("regine", {**REGINE, "deck": [4, 0, 0, 0, 0, 0, 0, 4], "suits": 1}),
    ("regine", {**REGINE, "deck": [3, 0, 0, 0, 0, 0, 3, 3], "suits": 1}),
    ("regine", {**REGINE, "deck": [3, 0, 0, 0, 0, 0, 3, 3], "suits": 2}),
    ("regnum", {"players": 2, "card_set": CARD_SETS["8 characters green cannot pay for"], "max_turns": 1}),
    ("regnum", {"players": 2, "card_set": CARD_SETS["8 characters, 6 green pays for"], "max_turns": 1}),
    ("duell-der-drachen", {"values": 2, "hand_size": 1}),
    ("duell-der-drachen", {"values": 2, **DUELL}),
    ("duell-der-drachen", {"values": 3, **DUELL}),
    ("duell-der-drachen", {"values": 3, **DUELL, "cards_per_side": 2}),
    ("duell-der-drachen", {"values": 4, **DUELL}),
    ("duo", {"players": 2, "rounds": 1}),
    ("duo", {"players": 2, "rounds": 1, "colours": 1, "numbers": 1, "shapes": 2, "hand_size": 1}),
    ("duo", {"players": 2, "rounds": 1, "colours": 2, "numbers": 2, "shapes": 2, "jokers": False, "hand_size": 2}),
]
#: The variants the convergence runs are on, one a game.
CURVES = [VARIANTS[2], VARIANTS[5], VARIANTS[7], VARIANTS[10]]


def label(name: str, options: dict[str, Any]) -> str:
    """``name k=v ...`` (JSON values; a Regnum card set by its name in ``CARD_SETS``)."""

    def shown(value: Any) -> str:
        named = [n for n, card_set in CARD_SETS.items() if card_set == value]
        return f"<{named[0]}>" if named else json.dumps(value, separators=(",", ":"))

    return name + "".join(f" {k}={shown(v)}" for k, v in options.items())


#: The games as the tables name them.
TITLES = {
    "duo-regna": "Duo Regna",
    "regine": "Regine",
    "regnum": "Regnum",
    "duell-der-drachen": "Duell der Drachen",
    "duo": "Duo",
}


def title(name: str, options: dict[str, Any]) -> str:
    """How a results table names a variant: ``Duo Regna `dragon_deck=[1,1], ...```."""
    shown = ", ".join(f"{k}={json.dumps(v, separators=(',', ':'))}" for k, v in options.items() if k != "card_set")
    text = f"{TITLES.get(name, name)} `{shown}`"
    if "card_set" in options:
        text += ", card set: " + label(name, {"card_set": options["card_set"]}).split("=", 1)[1]
    return text


SIZES_HEADER = ['variant (`chance="explicit"`)', "histories", "decision nodes", "chance nodes", "information sets"]
SIZES_HEADER.append("walk")


def markdown_row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def sizes(only: str | None = None) -> list[list[str]]:
    """The rows of the sizes table (of game ``only``'s variants, if given)."""
    rows = []
    for name, options in VARIANTS:
        if only is not None and name != only:
            continue
        game = regalia.make(name, chance="explicit", **options)
        start = time.perf_counter()
        try:
            tree = exact.game_tree(game)
        except GameTooLargeError as e:
            rows.append([title(name, options), f"refused: about {e.estimate:.1e} (estimated)", "", "", "", ""])
            print(markdown_row(rows[-1]), flush=True)
            continue
        took = time.perf_counter() - start
        shown = [f"{tree.histories:,}", f"{tree.decision_nodes:,}", f"{tree.chance_nodes:,}", f"{len(tree):,}"]
        rows.append([title(name, options), *shown, f"{took:.2f} s"])
        print(markdown_row(rows[-1]), flush=True)
    return rows


def checkpoints(total_seconds: float, run: Any, evaluate: Any) -> list[dict[str, float]]:
    """Runs ``run(n)`` in doubling steps until ``total_seconds`` of solving; after each step
    the exploitability of the average policy (``evaluate()``)."""
    points, spent, target = [], 0.0, 1
    done = 0
    while spent < total_seconds:
        start = time.perf_counter()
        done += run(target - done, total_seconds - spent)
        spent += time.perf_counter() - start
        points.append({"iterations": done, "seconds": spent, "exploitability": evaluate()})
        target *= 2
    return points


def curves(name: str, options: dict[str, Any], seconds: float) -> tuple[float, dict[str, list[dict[str, float]]]]:
    """The uniform policy's exploitability and the exploitability checkpoints of CFR+ and
    both MCCFR samplers on one variant."""
    game = regalia.make(name, chance="explicit", **options)
    tree = exact.game_tree(game)
    out: dict[str, list[dict[str, float]]] = {}
    plus = _core.CfrPlus(tree)
    out["CFR+"] = checkpoints(seconds, lambda n, s: plus.run(n, s), lambda: plus.exploitability()["exploitability"])
    for method in ("external", "outcome"):
        mccfr = _core.Mccfr(_core.make(name, dict(game.options)), method, 1)

        def value(m: Any = mccfr) -> float:
            return float(tree.exploitability(tree.table_policy(*m.averages()))["exploitability"])

        out[f"MCCFR {method}"] = checkpoints(seconds, lambda n, s, m=mccfr: m.run(n, s), value)
    return float(tree.exploitability(tree.uniform_policy())["exploitability"]), out


COLOURS = {"CFR+": (200, 40, 40), "MCCFR external": (40, 90, 200), "MCCFR outcome": (30, 150, 60)}


def plot(data: dict[str, list[dict[str, float]]], x: str, path: Path, title: str) -> None:
    """A log-log line plot of exploitability against ``x`` into ``path`` (PNG, Pillow)."""
    from PIL import Image, ImageDraw, ImageFont

    width, height, left, right, top, bottom = 720, 440, 70, 20, 40, 50
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=13)
    points = [(p[x], p["exploitability"]) for rows in data.values() for p in rows if p[x] > 0]
    xs = [math.log10(px) for px, _ in points]
    ys = [math.log10(max(py, 1e-12)) for _, py in points]
    x0, x1 = math.floor(min(xs)), math.ceil(max(xs))
    y0, y1 = math.floor(min(ys)), math.ceil(max(ys))

    def at(px: float, py: float) -> tuple[float, float]:
        fx = (math.log10(px) - x0) / max(x1 - x0, 1)
        fy = (math.log10(max(py, 1e-12)) - y0) / max(y1 - y0, 1)
        return left + fx * (width - left - right), height - bottom - fy * (height - top - bottom)

    draw.rectangle([left, top, width - right, height - bottom], outline="black")
    for e in range(x0, x1 + 1):
        px, _ = at(10.0**e, 10.0**y0)
        draw.line([px, top, px, height - bottom], fill=(225, 225, 225))
        draw.text((px - 12, height - bottom + 6), f"1e{e}", fill="black", font=font)
    for e in range(y0, y1 + 1):
        _, py = at(10.0**x0, 10.0**e)
        draw.line([left, py, width - right, py], fill=(225, 225, 225))
        draw.text((8, py - 7), f"1e{e}", fill="black", font=font)
    draw.text((left, 12), title, fill="black", font=font)
    draw.text((width // 2 - 30, height - 22), x, fill="black", font=font)
    for i, (name, rows) in enumerate(data.items()):
        line = [at(p[x], p["exploitability"]) for p in rows if p[x] > 0]
        colour = COLOURS.get(name, (0, 0, 0))
        if len(line) > 1:
            draw.line(line, fill=colour, width=2)
        for px, py in line:
            draw.ellipse([px - 2, py - 2, px + 2, py + 2], fill=colour)
        draw.text((left + 12, height - bottom - 16 * (len(data) - i) - 6), name, fill=colour, font=font)
    image.save(path)


#: The variant of the side-by-side run with OpenSpiel.
SIDE_BY_SIDE = ("duo-regna", {"dragon_deck": [2, 1], "dragons_to_win": 2, "max_rounds": 2})


def openspiel_rows(iterations: int) -> list[list[str]]:
    """The rows: seconds of ``iterations`` CFR+ iterations and of one exploitability, by
    OpenSpiel's Python algorithms on the adapter and by Regalia's, and the exploitability."""
    import pyspiel
    from open_spiel.python.algorithms import cfr as os_cfr
    from open_spiel.python.algorithms import exploitability as os_exploitability

    import regalia.envs.openspiel  # noqa: F401  (registers the games)

    name, options = SIDE_BY_SIDE
    params = {k: json.dumps(v).replace(",", ";") if isinstance(v, list) else v for k, v in options.items()}
    theirs = pyspiel.load_game("regalia_" + name.replace("-", "_"), {**params, "chance": "explicit"})
    start = time.perf_counter()
    solver = os_cfr.CFRPlusSolver(theirs)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    their_solve = time.perf_counter() - start
    start = time.perf_counter()
    their_value = os_exploitability.exploitability(theirs, solver.average_policy())
    their_eval = time.perf_counter() - start
    start = time.perf_counter()
    tree = _core.GameTree(_core.make(name, {**options, "chance": "explicit"}), exact.DEFAULT_MAX_HISTORIES)
    plus = _core.CfrPlus(tree)
    plus.run(iterations)
    our_solve = time.perf_counter() - start
    start = time.perf_counter()
    our_value = plus.exploitability()["exploitability"]
    our_eval = time.perf_counter() - start
    return [
        ["OpenSpiel (Python, adapter)", f"{their_solve:.2f} s", f"{their_eval:.2f} s", f"{their_value:.12f}"],
        ["Regalia (Rust; the tree's walk included)", f"{our_solve:.3f} s", f"{our_eval:.4f} s", f"{our_value:.12f}"],
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="solving time per method")
    parser.add_argument("--out", type=Path, default=None, help="folder for the PNGs and the JSON data")
    parser.add_argument("--openspiel-only", action="store_true", help="only the side-by-side run with OpenSpiel")
    parser.add_argument("--openspiel-iterations", type=int, default=20)
    parser.add_argument("--game", default=None, help="only this game's sizes and runs (no side-by-side run)")
    add_write_option(parser)
    args = parser.parse_args()
    provenance = Provenance()
    print(f"# {platform.machine()}, Python {platform.python_version()}, {args.seconds:g} s per method")
    if args.game is None:
        n = args.openspiel_iterations
        print(f"\nCFR+ for {n} iterations on {label(*SIDE_BY_SIDE)}, chance=explicit:\n")
        header = ["solver", f"{n} CFR+ iterations", "one exploitability", "exploitability"]
        print(markdown_row(header) + "\n|---|---|---|---|")
        rows = openspiel_rows(n)
        print("\n".join(markdown_row(r) for r in rows))
        if args.write is not None:
            write(args.write, "exact-openspiel", header, rows, provenance)
    if args.openspiel_only:
        return
    print("\n" + markdown_row(SIZES_HEADER) + "\n" + "|---" * len(SIZES_HEADER) + "|")
    table = sizes(args.game)
    if args.write is not None:
        write(args.write, "exact-tree-sizes", SIZES_HEADER, table, provenance)
    for game, options in CURVES:
        if args.game is not None and game != args.game:
            continue
        uniform, data = curves(game, options, args.seconds)
        print(f"\nExploitability on {label(game, options)}, chance=explicit:\n")
        print("| method | iterations | seconds | exploitability |\n|---|---|---|---|")
        print(f"| (uniform policy) | 0 | 0 | {uniform:.5f} |")
        for method, rows in data.items():
            for p in rows:
                print(f"| {method} | {p['iterations']:,.0f} | {p['seconds']:.2f} | {p['exploitability']:.5f} |")
        if args.out is not None:
            args.out.mkdir(parents=True, exist_ok=True)
            stem = f"exploitability-{game}"
            runs = {"variant": label(game, options), "uniform": uniform, "runs": data}
            text = json.dumps({**provenance.fields(), **runs}, indent=1)
            (args.out / f"{stem}.json").write_text(text)
            title = f"exploitability, {label(game, options)}"
            plot(data, "iterations", args.out / f"{stem}-iterations.png", title)
            plot(data, "seconds", args.out / f"{stem}-seconds.png", title)


if __name__ == "__main__":
    main()
