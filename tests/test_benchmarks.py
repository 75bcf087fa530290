"""The benchmark variants (``regalia.theory.benchmarks``): each builds, both seats decide
between moves, the stored numbers are those of the declared options, and a benchmark's name
stands for its game in ``regalia.exact`` and ``regalia exploitability --benchmark``."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

import regalia
from regalia import exact
from regalia.theory.benchmarks import BENCHMARKS, benchmarks
from tests.cli_helpers import run

#: The smallest benchmark, for the checks that measure an agent.
SMALLEST = min(benchmarks(), key=lambda b: b.measured.histories if b.measured else 1 << 62).name


def test_every_game_has_a_benchmark_and_every_name_is_its_own() -> None:
    assert {b.game for b in benchmarks()} == {g["name"] for g in regalia.games()}
    assert len(set(BENCHMARKS)) == len(BENCHMARKS)
    for name in BENCHMARKS:
        assert exact.benchmark(name).name == name


@pytest.mark.parametrize("name", BENCHMARKS)
def test_each_benchmark_builds_on_both_backends_with_explicit_chance(name: str) -> None:
    bench = exact.benchmark(name)
    for backend in ("rust", "reference"):
        game = bench.make(backend)
        assert game.name == bench.game and game.num_players == 2
        assert dict(game.options)["chance"] == "explicit"


@pytest.mark.parametrize("name", BENCHMARKS)
def test_both_seats_decide_and_the_stored_size_is_the_trees(name: str) -> None:
    bench = exact.benchmark(name)
    measured = bench.measured
    assert measured is not None, f"{name}: run python benches/benchmark_variants.py --only {name}"
    tree = exact.game_tree(name, 100_000_000)
    _, seats, counts, _ = tree.information_sets()
    for seat in (0, 1):
        assert np.any((seats == seat) & (counts > 1)), f"{name}: seat {seat} never chooses"
    assert (tree.histories, tree.decision_nodes, len(tree)) == (
        measured.histories,
        measured.decision_nodes,
        measured.information_sets,
    )
    assert measured.value_low - 1e-9 <= measured.value <= measured.value_high + 1e-9
    assert 0 <= measured.cfr_plus_exploitability < 0.01


def test_numbers_measured_on_other_options_are_not_reported() -> None:
    bench = exact.benchmark(BENCHMARKS[0])
    assert bench.measured is not None
    moved = replace(bench, options={**bench.options, "max_rounds": bench.options["max_rounds"] + 1})
    assert moved.measured is None and moved.fingerprint != bench.fingerprint


def test_a_name_stands_for_its_game() -> None:
    bench = exact.benchmark(SMALLEST)
    by_name = exact.exploitability(SMALLEST, exact.uniform)
    by_game = exact.exploitability(bench.make(), exact.uniform)
    assert by_name == by_game and by_name.exploitability > 0
    answer = exact.best_response(SMALLEST, "first-legal", seat=1)
    assert answer.value == pytest.approx(exact.exploitability(bench.make(), "first-legal").best_response_values[1])


@pytest.mark.parametrize("call", [exact.benchmark, exact.game_tree, lambda n: exact.exploitability(n, exact.uniform)])
def test_an_unknown_name_is_refused_listing_the_benchmarks(call: object) -> None:
    with pytest.raises(ValueError, match="unknown benchmark 'duo-regna'") as raised:
        call("duo-regna")  # type: ignore[operator]
    assert all(name in str(raised.value) for name in BENCHMARKS)


def test_the_command_line_measures_a_benchmark_as_the_library_does() -> None:
    result = run("exploitability", "--benchmark", SMALLEST, "first-legal", "--json")
    assert result.exit_code == 0, result.stderr
    shown = json.loads(result.stdout)
    assert shown["benchmark"] == SMALLEST and shown["game"] == exact.benchmark(SMALLEST).game
    assert shown["exploitability"] == pytest.approx(exact.exploitability(SMALLEST, "first-legal").exploitability)
    table = run("exploitability", "-b", SMALLEST, "random")
    assert table.exit_code == 0 and f"benchmark {SMALLEST}:" in table.stdout


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--benchmark", "nope", "random"], "the benchmarks are: " + ", ".join(BENCHMARKS)),
        (["--benchmark", BENCHMARKS[0], "random", "rules"], "only the AGENT"),
        (["--benchmark", BENCHMARKS[0], "random", "-o", "max_rounds=1"], "leave out -o"),
        (["--benchmark", BENCHMARKS[0], "nobody"], "unknown agent"),
        (["duo-regna"], "missing argument AGENT"),
        (["--benchmark", BENCHMARKS[0], "random", "--approximate"], "is walked exactly"),
    ],
)
def test_bad_benchmark_arguments_exit_2(args: list[str], says: str) -> None:
    result = run("exploitability", *args)
    assert result.exit_code == 2
    assert says in result.stderr
