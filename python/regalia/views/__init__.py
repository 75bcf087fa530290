"""A seat's view drawn for people: boards as text (``render``) and pictures of the table
(``pictures``), each from observations alone, so a drawing shows exactly what its seat sees.

May import: ``regalia.core``, ``regalia.registry`` (and below).
"""
