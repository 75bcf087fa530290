"""Draws a learning curve recorded by ``benches/train_policy.py`` (its ``curve.jsonl``): the
share of the points (a win 1, a draw one half) against each evaluated opponent, with its 99%
Wilson interval, against training steps and against training wall-clock time, into a PNG
(``pip install matplotlib``). A curve of held-out fixed orders shows their sum and the worst
of them at each evaluation.

    python benches/plot_learning.py docs/learning/duo-regna-random.jsonl \\
        --out docs/learning/duo-regna-random.png --line 0.6681:"best response to random" \\
        --line 0.5242:"equilibrium (solver) against random"
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from regalia.matches.tournaments import wilson_interval


def read_curve(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The run's header and its evaluation rows."""
    lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return lines[0], lines[1:]


def opponent_label(opponent: str, run: dict[str, Any]) -> str:
    """How a curve's opponent is named in the legend (held-out fixed orders by their range)."""
    if opponent == "worst order":
        first, last = run["eval_orders"]
        return f"the worst of held-out orders {first}-{last}"
    if opponent.startswith("orders "):
        return f"held-out {opponent}, all together"
    return opponent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("curve", type=Path)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--line", action="append", default=[], help="VALUE:LABEL, a horizontal reference line")
    args = parser.parse_args()

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    header, rows = read_curve(args.curve)
    run = header["run"]
    against = rows[0].get("against") or {run["opponent"]: {}}
    xs = {
        "training steps (millions)": [r["steps"] / 1e6 for r in rows],
        "training wall-clock time (minutes, 1 torch thread)": [r["seconds"] / 60 for r in rows],
    }
    fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
    for ax, (label, x) in zip(axes, xs.items()):
        for opponent in against:
            counts = [r["against"][opponent] if "against" in r else r for r in rows]
            games = [c["wins"] + c["draws"] + c["losses"] for c in counts]
            points = [c["wins"] + c["draws"] / 2 for c in counts]
            rate = [p / n for p, n in zip(points, games)]
            bounds = [wilson_interval(p, n, 0.99) for p, n in zip(points, games)]
            ax.fill_between(x, [b[0] for b in bounds], [b[1] for b in bounds], alpha=0.2)
            name = opponent_label(opponent, run)
            ax.plot(x, rate, marker=".", label=f"against {name} ({games[0]:,} games, 99% interval)")
        for spec in args.line:
            value, _, name = spec.partition(":")
            ax.axhline(float(value), linestyle="--", linewidth=1, color="grey")
            ax.annotate(name, (x[0], float(value)), fontsize=8, va="bottom")
        ax.set_xlabel(label)
        ax.grid(alpha=0.3)
    play = "sampled" if run.get("sample") else "greedy"
    axes[0].set_ylabel(f"share of the points, a draw one half ({play} play)")
    axes[0].legend(loc="lower right", fontsize=8)
    trained = (
        run["opponent"]
        if "," not in run["opponent"]
        else "a pool (" + ", ".join(sorted(set(run["opponent"].split(",")))) + ")"
    )
    if run.get("orders"):
        trained += f", fixed orders {run['orders'][0]}-{run['orders'][1]}"
    if run.get("mine_orders"):
        trained += ", the worst fixed orders found"
    if run.get("self_play_from") is not None:
        trained += ", past checkpoints"
    start = f", its actor started from {run['init_policy']}" if run.get("init_policy") else ""
    fig.suptitle(
        f"MaskablePPO on {run['game']} against {trained}\n(seed {run['seed']}, {run['envs']} envs{start})", fontsize=10
    )
    fig.tight_layout()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.out, dpi=100)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
