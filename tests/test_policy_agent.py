"""The ``policy`` agent and its file format: plays a saved network with numpy alone, in
matches, tournaments and the CLI, from its seat's view only; refuses other games, other
shapes and damaged files with an error naming what is wrong."""

from __future__ import annotations

import importlib.util
import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

import regalia
from regalia.agents import PolicyAgent, make_agent, view_of
from regalia.core.policy_file import PolicyNet, load_policy, save_policy
from regalia.matches.match import play
from regalia.matches.tournaments import tournament
from tests.cli_helpers import run


def random_net(game_name: str = "duo-regna", seed: int = 0, **options: object) -> PolicyNet:
    game = regalia.make(game_name, **options)  # type: ignore[arg-type]
    rng = np.random.default_rng(seed)
    sizes = [int(np.prod(game.observation_shape)), 16, game.num_actions]
    layers = [
        (rng.normal(size=(o, i)).astype(np.float32), rng.normal(size=o).astype(np.float32))
        for i, o in zip(sizes, sizes[1:])
    ]
    return PolicyNet(game.name, game.options, tuple(game.observation_shape), game.num_actions, "tanh", layers)


@pytest.fixture
def policy_path(tmp_path: Path) -> Path:
    path = tmp_path / "net.npz"
    save_policy(path, random_net())
    return path


def test_a_saved_policy_loads_as_it_was(policy_path: Path) -> None:
    net, loaded = random_net(), load_policy(policy_path)
    assert (loaded.game, loaded.observation_shape, loaded.num_actions) == ("duo-regna", (55,), 9)
    obs = np.random.default_rng(1).normal(size=(4, 55)).astype(np.float32)
    np.testing.assert_array_equal(loaded.logits(obs), net.logits(obs))


def test_the_agent_plays_the_legal_action_of_highest_logit(policy_path: Path) -> None:
    agent = make_agent(f"policy:path={policy_path}")
    assert isinstance(agent, PolicyAgent)
    net = load_policy(policy_path)
    state = regalia.make("duo-regna").new_state(4)
    for _ in range(30):
        if state.is_terminal:
            break
        seat = state.current_player
        view = view_of(state, seat, "duo-regna", state_options(), 0)
        logits = net.logits(np.asarray(state.observation_tensor(seat))[None])[0]
        legal = state.legal_actions()
        assert agent.act(view) == max(legal, key=lambda a: logits[a])
        state.apply(agent.act(view))


def test_the_agent_chooses_for_many_games_at_once(policy_path: Path) -> None:
    """``act_batch`` (what the vector envs ask): greedy, the legal action of highest logit in
    each row; sampling, only legal actions, each about as often as the policy's probability."""
    net, game = load_policy(policy_path), regalia.make("duo-regna")
    state = game.new_state(4)
    state.apply(state.legal_actions()[2])
    rows = 6_000
    observations = np.repeat(np.asarray(state.observation_tensor(1), dtype=np.float32)[None], rows, axis=0)
    masks = np.zeros((rows, 9), dtype=np.bool_)
    masks[:, [0, 3, 5, 8]] = True
    masks[::2, 3] = False  # two kinds of rows: four legal actions, and three
    logits = net.logits(observations[:1])[0]
    greedy = PolicyAgent(path=str(policy_path)).act_batch(game, observations, masks)
    for kind in (0, 1):
        legal = np.flatnonzero(masks[kind])
        assert (greedy[kind::2] == legal[np.argmax(logits[legal])]).all()
    sampled = PolicyAgent(seed=5, path=str(policy_path), sample=True).act_batch(game, observations, masks)
    assert masks[np.arange(rows), sampled].all()
    for kind in (0, 1):
        legal = np.flatnonzero(masks[kind])
        p = np.exp(logits[legal] - logits[legal].max())
        seen = np.array([(sampled[kind::2] == a).mean() for a in legal])
        np.testing.assert_allclose(seen, p / p.sum(), atol=0.03)


def state_options() -> dict[str, object]:
    return dict(regalia.make("duo-regna").options)


def test_the_agent_sees_only_its_seat(policy_path: Path) -> None:
    state = regalia.make("duo-regna").new_state(8)
    state.apply(state.legal_actions()[0])
    seat = state.current_player
    agent = make_agent(f"policy:path={policy_path}:sample=true", 3)
    chosen = {agent.act(view_of(state.determinize(seat, s), seat, "duo-regna", state_options(), 0)) for s in range(8)}
    greedy = make_agent(f"policy:path={policy_path}")
    worlds = {greedy.act(view_of(state.determinize(seat, s), seat, "duo-regna", state_options(), s)) for s in range(8)}
    assert len(worlds) == 1 and chosen <= set(state.legal_actions())


def test_the_agent_plays_matches_tournaments_and_the_cli(policy_path: Path) -> None:
    record = play("duo-regna", [make_agent(f"policy:path={policy_path}"), "random"], seed=2)
    assert record.error is None and record.returns is not None
    result = tournament("duo-regna", [f"policy:path={policy_path}", "random"], games=4, seed=1)
    assert sum(s.games for s in result.standings) == 8
    out = run("tournament", "duo-regna", "-a", f"policy:path={policy_path},random", "-n", "2", "--json")
    assert out.exit_code == 0, out.stdout
    assert json.loads(out.stdout)["standings"]
    out = run("gauntlet", "duo-regna", "--agent", f"policy:path={policy_path}", "-n", "2", "--json")
    assert out.exit_code == 0, out.stdout
    out = run("play", "duo-regna", "--seats", f"random,policy:path={policy_path}", "--seed", "1")
    assert out.exit_code == 0, out.stdout


def test_another_game_or_shape_is_refused_naming_it(tmp_path: Path, policy_path: Path) -> None:
    agent = make_agent(f"policy:path={policy_path}")
    state = regalia.make("regine", players=2).new_state(1)
    view = view_of(state, state.current_player, "regine", dict(regalia.make("regine", players=2).options), 0)
    with pytest.raises(regalia.InvalidArgumentError, match="trained for duo-regna, not regine"):
        agent.act(view)
    other = tmp_path / "regine-older.npz"  # as if the game's tensor had had 100 entries
    layers = [(np.zeros((90, 100), dtype=np.float32), np.zeros(90, dtype=np.float32))]
    save_policy(other, PolicyNet("regine", {}, (100,), 90, "tanh", layers))
    agent = make_agent(f"policy:path={other}")
    with pytest.raises(regalia.InvalidArgumentError, match=r"shape \(100,\).*regine with these options has \(286,\)"):
        agent.act(view)
    with pytest.raises(regalia.InvalidArgumentError, match="shape"):  # before the first move
        play(regalia.make("regine", players=2), [agent, "random"], seed=1)


def test_damaged_or_foreign_files_are_refused(tmp_path: Path, policy_path: Path) -> None:
    data = bytearray(policy_path.read_bytes())
    truncated = tmp_path / "truncated.npz"
    truncated.write_bytes(bytes(data[: len(data) // 2]))
    with pytest.raises(regalia.InvalidArgumentError, match="damaged"):
        make_agent(f"policy:path={truncated}")
    # weights changed behind the checksum's back
    with np.load(policy_path) as f:
        arrays = {k: f[k] for k in f.files}
    arrays["weight_0"] = arrays["weight_0"] + 1
    tampered = tmp_path / "tampered.npz"
    np.savez(tampered, **arrays)
    with pytest.raises(regalia.InvalidArgumentError, match="checksum"):
        load_policy(tampered)
    meta = json.loads(bytes(arrays["meta"]).decode())
    for key, value, message in [("version", 99, "version 99"), ("format", "x", "not a regalia-policy")]:
        changed = {**arrays, "meta": np.frombuffer(json.dumps({**meta, key: value}).encode(), dtype=np.uint8)}
        path = tmp_path / f"{key}.npz"
        np.savez(path, **changed)
        with pytest.raises(regalia.InvalidArgumentError, match=message):
            load_policy(path)
    foreign = tmp_path / "foreign.npz"
    with zipfile.ZipFile(foreign, "w") as z:
        z.writestr("hello.txt", "hi")
    with pytest.raises(regalia.InvalidArgumentError, match="damaged|not a policy"):
        load_policy(foreign)
    with pytest.raises(regalia.InvalidArgumentError, match="no policy file"):
        make_agent(f"policy:path={tmp_path / 'missing.npz'}")
    with pytest.raises(regalia.InvalidOptionError, match="needs a file"):
        make_agent("policy")


def test_a_zip_model_without_torch_names_the_extra(tmp_path: Path) -> None:
    if importlib.util.find_spec("sb3_contrib") is not None:
        pytest.skip("sb3-contrib is installed here: tests/test_sb3.py plays .zip models")
    path = tmp_path / "model.zip"
    path.write_bytes(b"PK")
    with pytest.raises(regalia.InvalidOptionError, match=r"regalia\[learn\]"):
        make_agent(f"policy:path={path}")


SHIPPED = Path(__file__).resolve().parents[1] / "docs" / "learning"


@pytest.mark.parametrize("name", ["duo-regna-random.npz", "duo-regna-pool.npz", "duo-regna-equilibrium.npz"])
def test_a_shipped_policy_plays_legally_and_refuses_what_it_was_not_made_for(name: str, tmp_path: Path) -> None:
    """Each shipped Duo Regna file, as a user names it (``policy:path=...``, greedy and
    sampled), plays whole matches from both seats through the match runner, which raises at
    the first illegal action; it refuses another game before the first move, and a damaged
    copy of it is refused when it is loaded."""
    for spec in (f"policy:path={SHIPPED / name}", f"policy:path={SHIPPED / name}:sample=true"):
        for seat in (0, 1):
            agents: list[object] = ["random", "random"]
            agents[seat] = make_agent(spec, seat)
            record = play("duo-regna", agents, seed=3 + seat)  # type: ignore[arg-type]
            assert record.error is None and record.returns is not None
    with pytest.raises(regalia.InvalidArgumentError, match="trained for duo-regna, not regine"):
        play(regalia.make("regine", players=2), [make_agent(f"policy:path={SHIPPED / name}"), "random"], seed=1)
    damaged = tmp_path / name
    damaged.write_bytes((SHIPPED / name).read_bytes()[:-100])
    with pytest.raises(regalia.InvalidArgumentError, match="damaged"):
        make_agent(f"policy:path={damaged}")


def shipped_results(name: str, opponent: str, games: int, sample: bool = False) -> tuple[int, int, int]:
    """Wins, draws and losses of the shipped policy ``docs/learning/NAME`` over ``games``
    native games against ``opponent`` (half from each seat; greedy, or with ``sample`` drawn
    from its probabilities by a seeded generator), after checking it is intact."""
    from regalia.envs.seat_batch import SeatBatch

    net = load_policy(SHIPPED / name)
    assert (net.game, net.observation_shape) == ("duo-regna", (55,))
    slots = 200
    batch = SeatBatch("duo-regna", slots, seat=[i % 2 for i in range(slots)], opponents=opponent, seed=77, threads=1)
    agent = PolicyAgent(seed=77, path=str(SHIPPED / name), sample=True)
    out, played, results = batch.reset(), np.zeros(slots, dtype=np.int64), [0, 0, 0]
    while (played < games // slots).any():
        if sample:
            chosen = agent.act_batch(batch.game, out.observations, out.masks | ~out.masks.any(axis=1, keepdims=True))
        else:
            chosen = np.argmax(np.where(out.masks, net.logits(out.observations), -np.inf), axis=1)
        out = batch.step(chosen)
        counted = out.terminated & (played < games // slots)
        for k, outcome in enumerate((out.rewards > 0, out.rewards == 0, out.rewards < 0)):
            results[k] += int((outcome & counted).sum())
        played += out.terminated
    return results[0], results[1], results[2]


def test_the_shipped_duo_regna_policy_loads_and_beats_the_equilibriums_rate() -> None:
    """docs/learning/duo-regna-random.npz: intact, and over 1,000 native games against
    random it wins more often than the equilibrium does (52.42%, docs/agents.md)."""
    wins, _, _ = shipped_results("duo-regna-random.npz", "random", 1_000)
    assert wins / 1_000 > 0.5242


@pytest.mark.parametrize("opponent", ["random", "first-legal", "last-legal"])
def test_the_shipped_pool_policy_wins_against_random_and_the_fixed_strategies(opponent: str) -> None:
    """docs/learning/duo-regna-pool.npz, trained against a pool that holds fixed strategies:
    it wins more games than it loses against first-legal and last-legal (the policy trained
    against random alone lost every game to first-legal), and beats the equilibrium's rate
    against random."""
    wins, _, losses = shipped_results("duo-regna-pool.npz", opponent, 1_000)
    assert wins > losses and (opponent != "random" or wins / 1_000 > 0.5242)


def points(results: tuple[int, int, int]) -> float:
    """The share of the points of (wins, draws, losses): a draw counts one half."""
    wins, draws, losses = results
    return (wins + draws / 2) / (wins + draws + losses)


#: Strategies that ignore the game: the first and last legal action, and the gauntlet's
#: fixed orders 1 to 3 (never met in training: the pool met orders 101 and 102, the later
#: runs only orders from 1,000 on).
FIXED = ["first-legal", "last-legal", *(f"fixed-order:order={k}" for k in (1, 2, 3))]
#: The known failures of the shipped pool policy (issue 30; docs/learning.md).
LOSES_TO = {"fixed-order:order=1", "fixed-order:order=3"}


@pytest.mark.parametrize(
    "opponent",
    [
        pytest.param(o, marks=pytest.mark.xfail(strict=True, reason="issue 30: it loses to fixed orders"))
        if o in LOSES_TO
        else o
        for o in FIXED
    ],
)
def test_no_strategy_that_ignores_the_game_beats_the_shipped_pool_policy(opponent: str) -> None:
    """The standard: more than half the points over 1,000 games against each fixed strategy
    (a player that takes 45% of them passes with a chance under one in a thousand). The
    shipped pool policy, greedy, fails it against orders 1 and 3 (and worse against others:
    docs/learning.md); it is marked as a known failure, and a fix makes it pass."""
    assert points(shipped_results("duo-regna-pool.npz", opponent, 1_000)) > 0.5


@pytest.mark.parametrize("opponent", [*FIXED, "fixed-order:order=4", "fixed-order:order=5", "random"])
def test_the_fitted_equilibrium_is_hard_to_exploit(opponent: str) -> None:
    """docs/learning/duo-regna-equilibrium.npz, sampled, is close to the equilibrium: none of
    these strategies takes more than 55% of the points from it over 1,000 games, where the
    pool policy gives order 3 two thirds of them (over the first 40 orders the worst took
    55.3% on one seed and 51.8% on another: docs/learning.md)."""
    assert points(shipped_results("duo-regna-equilibrium.npz", opponent, 1_000, sample=True)) > 0.45


def positions(name: str, options: dict[str, object], count: int) -> tuple[np.ndarray, np.ndarray]:
    """Observation tensors and legal masks of the players to move in ``count`` positions of
    random games of ``name``."""
    env = regalia.VectorEnv(name, 8, seed=7, threads=1, **options)  # type: ignore[arg-type]
    obs, masks, _ = env.reset()
    seen_obs, seen_masks = [obs], [masks]
    while sum(len(o) for o in seen_obs) < count:
        obs, masks, *_ = env.step(env.sample_actions())
        seen_obs.append(obs)
        seen_masks.append(masks)
    width = int(np.prod(env.observation_shape))
    return np.concatenate(seen_obs).reshape(-1, width)[:count], np.concatenate(seen_masks)[:count]


def test_the_native_policy_chooses_as_the_agent_in_every_game(config: tuple[str, int], tmp_path: Path) -> None:
    """``regalia._core.Policy`` (the network in Rust, which the vector envs play natively)
    against the numpy agent over many positions: the same logits up to float rounding, the
    same greedy move (unless the two best legal logits are within rounding of each other,
    then one of them), the same probabilities, and the same sampled move for the same
    uniform draws (unless a draw falls within rounding of a boundary)."""
    from tests.conftest import SUITE_OPTIONS

    name, players = config
    options = {"players": players, **SUITE_OPTIONS.get(name, {})}
    net = random_net(name, 3, **options)
    save_policy(tmp_path / "net.npz", net)
    game = regalia.make(name, **options)  # type: ignore[arg-type]
    native = regalia._core.Policy(game, list(net.layers), net.activation)
    obs, masks = positions(name, options, 600)
    logits = net.logits(obs)
    np.testing.assert_allclose(native.logits(obs), logits, rtol=1e-4, atol=1e-4)

    greedy = PolicyAgent(path=str(tmp_path / "net.npz")).act_batch(game, obs, masks)
    chosen = native.act(obs, masks)
    legal_logits = np.where(masks, logits, -np.inf)
    top_two = np.sort(legal_logits, axis=1)[:, -2:]
    clear = (top_two[:, 1] - top_two[:, 0] > 1e-3) | (masks.sum(axis=1) == 1)
    assert clear.mean() > 0.9
    np.testing.assert_array_equal(chosen[clear], greedy[clear])
    near_top = legal_logits[np.arange(len(obs)), chosen] >= legal_logits.max(axis=1) - 1e-3
    assert near_top.all()

    weights = np.exp(legal_logits.astype(np.float64) - legal_logits.max(axis=1, keepdims=True))
    expected = weights / weights.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(native.probabilities(obs, masks), expected, atol=1e-5)

    sampled = PolicyAgent(seed=11, path=str(tmp_path / "net.npz"), sample=True).act_batch(game, obs, masks)
    draws = np.random.default_rng(11).random((len(obs), 1))  # the agent's draws, in its order
    cumulative = np.cumsum(expected, axis=1)
    away = (np.abs(cumulative - draws) > 1e-5).all(axis=1)
    assert away.mean() > 0.95
    by_native = native.act(obs, masks, draws.ravel().tolist())
    np.testing.assert_array_equal(by_native[away], sampled[away])
    assert masks[np.arange(len(obs)), by_native].all()


def test_the_native_policy_breaks_ties_to_the_lowest_id_and_checks_its_input(tmp_path: Path) -> None:
    game = regalia.make("duo-regna")
    bias = np.array([1, 3, 3, 0, 3, 0, 0, 0, 0], dtype=np.float32)
    layers = [(np.zeros((9, 55), dtype=np.float32), bias)]
    flat = regalia._core.Policy(game, layers, "relu")
    obs = np.zeros((3, 55), dtype=np.float32)
    masks = np.zeros((3, 9), dtype=np.bool_)
    masks[0, [0, 1, 2]] = masks[1, [2, 4]] = masks[2, 0] = True
    assert flat.act(obs, masks).tolist() == [1, 2, 0]
    save_policy(tmp_path / "flat.npz", PolicyNet("duo-regna", dict(game.options), (55,), 9, "relu", layers))
    assert PolicyAgent(path=str(tmp_path / "flat.npz")).act_batch(game, obs, masks).tolist() == [1, 2, 0]
    assert flat.act(obs, np.zeros((3, 9), dtype=np.bool_)).tolist() == [-1, -1, -1]
    with pytest.raises(regalia.InvalidArgumentError, match="55 columns"):
        flat.act(np.zeros((3, 54), dtype=np.float32), masks)
    with pytest.raises(regalia.InvalidArgumentError, match="3 rows and 9 columns"):
        flat.act(obs, masks[:2])
    with pytest.raises(regalia.InvalidArgumentError, match="one number for each"):
        flat.act(obs, masks, [0.5])
    with pytest.raises(regalia.InvalidArgumentError, match=r"takes 54 inputs.*\(55,\) \(55 floats\) and 9 actions"):
        regalia._core.Policy(game, [(np.zeros((9, 54), dtype=np.float32), bias)], "relu")
    with pytest.raises(regalia.InvalidArgumentError, match="layer 1"):
        regalia._core.Policy(game, [(np.zeros((4, 55), dtype=np.float32), bias[:4])] * 2, "tanh")
    with pytest.raises(regalia.InvalidArgumentError, match="unknown activation"):
        regalia._core.Policy(game, [(np.zeros((9, 55), dtype=np.float32), bias)], "gelu")
    as_float64 = regalia._core.Policy(game, [(np.zeros((9, 55)), bias.astype(np.float64))], "relu")
    assert as_float64.act(obs, masks).tolist() == [1, 2, 0]
    for bad_layers in (3, "w", [(np.zeros(9), bias)], [(np.zeros((9, 55)), np.zeros((9, 1)))], [np.zeros(3)]):
        with pytest.raises(regalia.InvalidArgumentError, match="pairs of float arrays"):
            regalia._core.Policy(game, bad_layers, "relu")  # type: ignore[arg-type]
    with pytest.raises(regalia.InvalidArgumentError, match="draws"):
        flat.act(obs, masks, "abc")  # type: ignore[arg-type]
    nan = bias.copy()
    nan[3] = np.nan
    with pytest.raises(regalia.InvalidArgumentError, match="finite"):
        regalia._core.Policy(game, [(np.zeros((9, 55), dtype=np.float32), nan)], "relu")


def guarded_results(spec: str, opponent: str, games: int) -> tuple[int, int, int]:
    """Wins, draws and losses of the agent ``spec`` (one instance) against ``opponent`` over
    ``games`` matches through the match runner, game ``i`` with seed ``100 + i`` from seat
    ``i % 2``."""
    agent, results = make_agent(spec, 7), [0, 0, 0]
    for i in range(games):
        seats: list[object] = [opponent, opponent]
        seats[i % 2] = agent
        returns = play("duo-regna", seats, seed=100 + i).returns  # type: ignore[arg-type]
        assert returns is not None
        r = returns[i % 2]
        results[0 if r > 0 else 1 if r == 0 else 2] += 1
    return results[0], results[1], results[2]


@pytest.mark.parametrize("opponent", ["fixed-order:order=15", "first-legal"])
def test_the_exploit_guard_beats_what_the_pool_policy_alone_loses_to(opponent: str) -> None:
    """``exploit=true`` puts the hand-written exploit before the pool policy: over 60 games it
    takes more than 90% of the points from order 15 and from first-legal (it took all of
    them when this was written); the policy alone takes less than 85% from each in the same
    games (none from order 15, three quarters from first-legal; docs/learning.md), so the
    test fails if the guard does nothing."""
    pool = f"policy:path={SHIPPED / 'duo-regna-pool.npz'}"
    assert points(guarded_results(f"{pool}:exploit=true", opponent, 60)) > 0.9
    assert points(guarded_results(pool, opponent, 60)) < 0.85


def test_the_guard_is_off_by_default_and_its_option_is_checked(policy_path: Path) -> None:
    """By default a policy plays as trained (a ``PolicyAgent``, which the vector envs ask in
    batches); with ``exploit=true`` it is guarded and keeps its name; an option that is not
    true or false is refused."""
    assert isinstance(make_agent(f"policy:path={policy_path}"), PolicyAgent)
    guarded = make_agent(f"policy:path={policy_path}:exploit=true")
    assert not isinstance(guarded, PolicyAgent) and guarded.name == "policy"  # type: ignore[attr-defined]
    for bad in ("exploit=maybe", "exploit=1", "sample=yes"):
        with pytest.raises(regalia.InvalidOptionError, match="true or false"):
            make_agent(f"policy:path={policy_path}:{bad}")
