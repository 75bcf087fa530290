"""The table: people and bots seated at one game, with no terminal and no web page in it.

``Table`` runs the game: whose turn it is, the moves offered to a person with their names,
forced moves played for them, bots asked in turn, undo by the rule that it never goes back
past something new (``undo``), the narration of every move as each seat may know it
(``narrate``) and the log as events (``Event``), save and resume, and the hand-over between
people sharing one screen. The rules every front-end follows are here too: which bot may sit
at a game (``check_bot``), where a table's chance comes from (``table_game``,
``resumed_game``: seeded, a person never chooses it), a recorded game walked for an onlooker
(``Replay``), and reading a move typed as text (``move_menu``: the list of a decision's moves,
whose ``Menu.read`` gives the action a text means or raises ``MoveRefused``;
``has_numeric_names`` says whether the list is labelled with letters). The front-ends (the
command line, the web table) only draw it.

May import: ``regalia.matches`` and everything below it; never a terminal or web library.
"""

from regalia.table.bots import BotRefused, check_bot
from regalia.table.chance import ChanceChosen, chance_of, refuse_chosen_chance, resumed_game, table_game
from regalia.table.events import Event, Refused, Waiting
from regalia.table.menu import Menu, move_menu
from regalia.table.moves import MoveList, MoveRefused, has_numeric_names
from regalia.table.replay import BrokenRecord, Frame, Replay, ReplayMove
from regalia.table.seating import HUMAN, default_seats, strongest_agent
from regalia.table.table import Table

__all__ = [
    "HUMAN",
    "BotRefused",
    "BrokenRecord",
    "ChanceChosen",
    "Event",
    "Frame",
    "Menu",
    "MoveList",
    "MoveRefused",
    "Refused",
    "Replay",
    "ReplayMove",
    "Table",
    "Waiting",
    "chance_of",
    "check_bot",
    "default_seats",
    "has_numeric_names",
    "move_menu",
    "refuse_chosen_chance",
    "resumed_game",
    "strongest_agent",
    "table_game",
]
