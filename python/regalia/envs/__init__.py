"""Environments for other libraries: Gymnasium (``gymnasium``, ``gymnasium_vector``),
Stable-Baselines3 (``sb3``), PettingZoo (``pettingzoo``), OpenSpiel (``openspiel``), and the
seat batch the vector environments step (``seat_batch``). Each adapter imports its library
at the top: import the one whose extra is installed.

May import: ``regalia.matches`` and everything below it.
"""
