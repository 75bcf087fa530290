"""The table: people and bots seated at one game, with no terminal and no web page in it.

``Table`` runs the game: whose turn it is, the moves offered to a person with their names,
forced moves played for them, bots asked in turn, undo by the rule that it never goes back
past something new (``undo``), the narration of every move as each seat may know it
(``narrate``) and the log as events (``Event``), save and resume, and the hand-over between
people sharing one screen. Reading a move typed as text (``moves``, ``menu``) is here too, for
any front-end that reads text. The front-ends (the command line, the web table) only draw it.

May import: ``regalia.matches`` and everything below it; never a terminal or web library.
"""

from regalia.table.events import Event, Refused, Waiting
from regalia.table.seating import HUMAN, default_seats, strongest_agent
from regalia.table.table import Table

__all__ = ["HUMAN", "Event", "Refused", "Table", "Waiting", "default_seats", "strongest_agent"]
