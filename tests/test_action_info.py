"""``State.action_info``: what an action id means, the same on both backends, of the type
``regalia.core.actions`` declares, made from what every seat sees, refused clearly out of range."""

from __future__ import annotations

import random
from typing import Any

import pytest

import regalia
from regalia.core.actions import ACTION_INFOS
from regalia.core.errors import IllegalActionError
from tests.conftest import make_game
from tests.test_observations import mismatch

#: Check every id in range (not only the legal ones), and every seat's determinizations, on
#: one step in this many.
ALL_IDS_EVERY = 5


def test_every_game_has_its_action_info_type() -> None:
    assert set(ACTION_INFOS) == {g["name"] for g in regalia.games()}


@pytest.mark.parametrize("players", ["min", "max"])
@pytest.mark.parametrize("game_name", sorted(ACTION_INFOS))
def test_backends_agree_on_every_action_info(game_name: str, players: str) -> None:
    """Along played games: the same info on both backends for every legal action (every id
    now and then), of the declared type, the same in every world a seat could be in."""
    count = next(g for g in regalia.games() if g["name"] == game_name)[f"{players}_players"]
    rust, ref = make_game(game_name, count), make_game(game_name, count, "reference")
    expected = ACTION_INFOS[game_name]
    kinds: set[str] = set()
    for seed in range(2):
        r, p, pick = rust.new_state(seed), ref.new_state(seed), random.Random(seed)
        while not r.is_terminal:
            step = len(r.history())
            ids = range(rust.num_actions) if step % ALL_IDS_EVERY == 0 else r.legal_actions()
            infos = {a: r.action_info(a) for a in ids}
            for a, info in infos.items():
                at = f"seed {seed} step {step} action {a}"
                assert info == p.action_info(a), at
                assert (why := mismatch(info, expected, at)) is None, why
                kinds.add(info["kind"])
            if step % ALL_IDS_EVERY == 0:
                for seat in range(count):
                    world = r.determinize(seat, seed * 1000 + step)
                    assert {a: world.action_info(a) for a in ids} == infos, f"seed {seed} step {step} seat {seat}"
            a = pick.choice(r.legal_actions())
            r.apply(a)
            p.apply(a)
    assert kinds, "no action was described"


@pytest.mark.parametrize("game_name", sorted(ACTION_INFOS))
def test_a_bad_id_is_refused_and_changes_nothing(game_name: str, backend: str) -> None:
    game = make_game(game_name, backend=backend)
    state = game.new_state(3)
    before = state.to_json()
    for bad in (-1, game.num_actions, 10**30, "1", 1.5, None, True):
        with pytest.raises(IllegalActionError) as raised:
            state.action_info(bad)
        assert isinstance(raised.value, ValueError)
    assert state.to_json() == before


@pytest.mark.parametrize(
    ("game_name", "action", "info", "name"),
    [
        ("duo-regna", 8, {"kind": "play", "card": "6 queen"}, "6 queen"),
        ("duo", 26, {"kind": "play", "card": "red 3 triangle", "pile": "left"}, "play red 3 triangle on left"),
        ("duo", 77 + 76, {"kind": "play", "card": "turbo-joker", "pile": "right"}, "play turbo-joker on right"),
        ("duo", 154, {"kind": "draw"}, "draw"),
        ("duo", 155, {"kind": "end_turn"}, "end turn"),
        (
            "duell-der-drachen",
            6,
            {"kind": "play", "card": "red 7", "territory": "red", "face_up": True},
            "red 7 face up",
        ),
        (
            "duell-der-drachen",
            45 + 6 * 5 + 1,
            {"kind": "play", "card": "red 7", "territory": "blue", "face_up": False},
            "red 7 face down on blue",
        ),
        ("regine", 14, {"kind": "play", "card": "princess", "face_up": False}, "play princess face down"),
        ("regine", 23, {"kind": "exchange", "card": "queen"}, "exchange queen"),
        ("regine", 25, {"kind": "no_changes"}, "there are no changes"),
        ("regine", 29, {"kind": "name_seat", "effect": "peasant", "seat": 2}, "peasant: seat 2"),
        ("regine", 32, {"kind": "show_card", "effect": "peasant", "card": "peasant"}, "peasant: show peasant"),
        (
            "regine",
            39 + 4 * 3 + 2,
            {"kind": "target_card", "effect": "assassin", "seat": 3, "slot": 2},
            "assassin: seat 3 slot 2",
        ),
        (
            "regine",
            55 + 4,
            {"kind": "target_card", "effect": "courtesan", "seat": 1, "slot": 0},
            "courtesan: seat 1 slot 0",
        ),
        ("regine", 72, {"kind": "herald", "effect": "herald", "take": False}, "herald: put it at the bottom"),
        ("regine", 76, {"kind": "name_seat", "effect": "knight", "seat": 3}, "knight: seat 3"),
        ("regine", 84, {"kind": "discard", "effect": "princess", "card": "queen"}, "princess: discard queen"),
        ("regine", 87, {"kind": "double_down"}, "double down"),
        ("regine", 89, {"kind": "we_shall_see"}, "we shall see"),
        ("regnum", 0, {"kind": "draw_two"}, "draw two"),
        ("regnum", 6, {"kind": "pay", "card": "G", "colour": "G", "wild": False}, "pay G"),
        ("regnum", 6 + 4 * 4 + 1, {"kind": "pay", "card": "G/O", "colour": "O", "wild": False}, "pay G/O as O"),
        ("regnum", 6 + 2, {"kind": "pay", "card": "G", "colour": "P", "wild": True}, "pay G as P (wild)"),
        ("regnum", 46 + 9, {"kind": "discard", "card": "P/Y"}, "discard P/Y"),
        ("regnum", 59, {"kind": "steal", "seat": 2}, "steal from seat 2"),
        ("regnum", 72, {"kind": "take_from_deck", "card": "O"}, "take O from the deck"),
        ("regnum", 84, {"kind": "give_to_deck", "card": "Y"}, "give Y to the deck"),
    ],
)
def test_documented_ids_mean_what_the_developer_page_says(
    game_name: str, action: int, info: dict[str, Any], name: str, backend: str
) -> None:
    state = regalia.make(game_name, backend=backend).new_state(0)
    assert state.action_info(action) == info
    assert state.action_name(action) == name


def test_a_regnum_buy_names_the_character_in_the_public_line_up(backend: str) -> None:
    state = regalia.make("regnum", backend=backend).new_state(4)
    lineup = state.observation(0)["lineup"]
    for slot, character in enumerate(lineup):
        assert state.action_info(2 + slot) == {"kind": "buy", "slot": slot, "character": character}
        assert state.action_name(2 + slot) == f"buy {character} (slot {slot + 1})"
