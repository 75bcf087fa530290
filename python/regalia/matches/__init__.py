"""Playing many games: one match (``match``), tournaments with seat rotation and intervals
(``tournaments``), the gauntlet of simple opponents (``gauntlet``), simulations and their
datasets (``simulations``, ``datasets``), run locally or on Ray (``executors``).

May import: ``regalia.agents`` and everything below it; never an environment adapter.
"""
