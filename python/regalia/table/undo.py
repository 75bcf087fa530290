"""What ``undo`` may take back at the table: only moves that told the person nothing new.

A person who could take back a move after it showed them a card (a card drawn, a display card
turned up, the opponent's card at a reveal) or after an opponent chose a move could look at
what the rules hide, as often as they liked: the same draw would come again, and the bot's
reply would tell them what to play instead. So, as on Board Game Arena, undo never goes back
past something new: a move by another seat (a choice made with cards the person cannot see),
or a move of the person's own whose outcome they could not have known.

Whether a move of the person's told them anything is decided from their view only: the move
is played in worlds the seat cannot tell from the true game (``determinize``: the hidden cards
and the deck's order drawn again); if it leads to the same observation in all of them, it
showed nothing that was hidden.
"""

from __future__ import annotations

from regalia.core.protocols import StateProtocol

#: Worlds the move is tried in. A move that shows a card from ``n`` unseen ones looks the
#: same in all of them with chance ``(1/n) ** WORLDS`` at most.
WORLDS = 12


def told_nothing(state: StateProtocol, action: int, seat: int) -> bool:
    """Whether ``seat`` playing ``action`` at ``state`` learns nothing it did not know: the
    observation after the move is the same in every world the seat cannot tell from ``state``."""
    after = state.clone()
    after.apply(action)
    seen = after.observation(seat)
    for k in range(WORLDS):
        world = state.determinize(seat, k)
        if action not in world.legal_actions():
            return False
        world.apply(action)
        if world.observation(seat) != seen:
            return False
    return True
