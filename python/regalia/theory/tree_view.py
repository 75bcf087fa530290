"""The view a non-adaptive policy is handed at an information set of a game tree, built lazily.

Its seat and legal actions come straight from the tree (native, no replay); what needs a
state (the observation, the action names, sampled worlds, the observation tensor, action
infos) is built on first read by replaying one history of the set from the root, once, as
``view_of`` would build it then. A policy that reads only the legal actions (uniform play, a
fixed order, a table lookup) so never costs a replay. What it exposes is what the seat's
``View`` exposes: the same fields, equal to the eager view's; until it is built it keeps only
where to replay from (private, never shown), and drops that once built.
"""

from __future__ import annotations

from typing import Any

from regalia.core import engine
from regalia.core.view import View, view_of

__all__ = ["Replayer", "TreeView"]

#: The fields built on first read (the others are given).
_LAZY = frozenset(("observation", "action_names", "_world"))


class Replayer:
    """Builds the eager view of an information set of ``tree`` for its seat: one of its
    histories replayed from the root on ``core``'s game, the world seeded with the set's index."""

    __slots__ = ("core", "name", "options", "tree")

    def __init__(self, core: Any, tree: engine.GameTree) -> None:
        self.core, self.tree = core, tree
        self.name, self.options = core.name, dict(core.options)

    def view(self, index: int, seat: int) -> View:
        """The eager view of information set ``index`` for ``seat``."""
        state = self.core.new_state(0)
        for action in self.tree.history(index):
            state.apply(action)
        return view_of(state, seat, self.name, self.options, world_seed=index)


class TreeView(View):
    """A ``View`` of one information set for ``seat`` with its ``legal_actions`` (in the
    tree's order, the state's), the others built on first read (see the module) by
    ``at = (replayer, index)``: ``replayer.view(index, seat)``."""

    def __init__(self, game: str, options: dict[str, Any], seat: int, legal_actions: list[int], at: Any) -> None:
        # The view is frozen: its fields are set in its dict, as the dataclass does.
        fields = self.__dict__
        fields["game"], fields["options"], fields["seat"] = game, options, seat
        fields["legal_actions"], fields["_at"] = legal_actions, at

    def __getattr__(self, name: str) -> Any:
        """A lazy field, built with the others on first read."""
        if name not in _LAZY or "_at" not in self.__dict__:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        return getattr(self.built(), name)

    def built(self) -> View:
        """The eager view (``view_of``'s); its fields are kept here from then on."""
        fields = self.__dict__
        if "_at" not in fields:
            return View(**{name: fields[name] for name in View.__dataclass_fields__})
        replayer, index = fields.pop("_at")
        eager: View = replayer.view(index, self.seat)
        for name in _LAZY:
            fields[name] = getattr(eager, name)
        return eager

    def __reduce_ex__(self, protocol: Any) -> Any:
        """Copied and pickled as the eager view (so a copy never carries the tree)."""
        built = self.built()
        return View, tuple(getattr(built, name) for name in View.__dataclass_fields__)
