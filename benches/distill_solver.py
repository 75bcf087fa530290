"""Fits a policy network to the Duo Regna solver's equilibrium (supervised, ``pip install
"regalia[learn]"``): a start for ``benches/train_policy.py --init-policy`` that is hard to
exploit from the first step (see docs/learning.md).

    nice -n 10 python benches/distill_solver.py --games 20000 --seed 0 --out runs/duo-regna-solver.npz

Plays ``--games`` games in which each seat draws each card from the equilibrium or, with
``--explore`` chance, uniformly (so that the positions a weaker player reaches are seen too),
records every decision's observation tensor, legal actions and the equilibrium's strategy,
and fits an actor of the ``MlpPolicy`` shape (``--hidden``, tanh) to those strategies by
cross-entropy over the legal actions; it prints the mean total-variation distance between
the fitted and the solver's strategies on held-out positions and writes a policy file.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

import regalia
from regalia.core.policy_file import PolicyNet, save_policy


def positions(games: int, explore: float, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Observations, legal-action masks and the equilibrium's strategies of every decision."""
    game = regalia.make("duo-regna")
    rng = np.random.default_rng(seed)
    observations, masks, targets = [], [], []
    for g in range(games):
        state = game.new_state(seed * 1_000_003 + g)
        while not state.is_terminal:
            seat = state.current_player
            strategy, _ = state.solver_policy()
            legal = state.legal_actions()
            target = np.zeros(game.num_actions, dtype=np.float32)
            for action, p in strategy.items():
                target[action] = p
            mask = np.zeros(game.num_actions, dtype=bool)
            mask[legal] = True
            observations.append(state.observation_tensor(seat))
            masks.append(mask)
            targets.append(target / target.sum())
            if rng.random() < explore:
                action = int(rng.choice(legal))
            else:
                action = int(rng.choice(game.num_actions, p=targets[-1]))
            state.apply(action)
    return np.array(observations, dtype=np.float32), np.array(masks), np.array(targets, dtype=np.float32)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--explore", type=float, default=0.3, help="chance of a uniform card instead")
    parser.add_argument("--hidden", default="64,64")
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()

    import torch

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    start = time.perf_counter()
    obs, masks, targets = positions(args.games, args.explore, args.seed)
    print(f"{len(obs):,} positions from {args.games:,} games ({time.perf_counter() - start:.0f} s)", flush=True)
    held = len(obs) // 10
    sizes = [obs.shape[1], *(int(h) for h in args.hidden.split(",")), masks.shape[1]]
    layers: list[torch.nn.Module] = []
    for k in range(len(sizes) - 1):
        layers += [torch.nn.Linear(sizes[k], sizes[k + 1]), torch.nn.Tanh()]
    net = torch.nn.Sequential(*layers[:-1])
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
    x, m, t = torch.from_numpy(obs), torch.from_numpy(masks), torch.from_numpy(targets)

    def log_probs(rows: slice | torch.Tensor) -> torch.Tensor:
        logits = net(x[rows]).masked_fill(~m[rows], -1e9)
        return torch.log_softmax(logits, dim=1)

    order = torch.arange(held, len(obs))
    for epoch in range(args.epochs):
        shuffled = order[torch.randperm(len(order))]
        for batch in shuffled.split(1024):
            loss = -(t[batch] * log_probs(batch)).sum(dim=1).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        with torch.no_grad():
            fitted = log_probs(slice(0, held)).exp()
            distance = 0.5 * (fitted - t[:held]).abs().sum(dim=1).mean().item()
        print(f"epoch {epoch + 1}: held-out total-variation distance {distance:.4f}", flush=True)
    linear = [module for module in net if isinstance(module, torch.nn.Linear)]
    game = regalia.make("duo-regna")
    policy = PolicyNet(
        game=game.name,
        options=dict(game.options),
        observation_shape=tuple(game.observation_shape),
        num_actions=game.num_actions,
        activation="tanh",
        layers=[(mod.weight.detach().numpy().copy(), mod.bias.detach().numpy().copy()) for mod in linear],
    )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    save_policy(args.out, policy)
    print(f"wrote {args.out} ({time.perf_counter() - start:.0f} s in all)")


if __name__ == "__main__":
    main()
