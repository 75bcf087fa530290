"""Game theory: the exact Duo Regna solver (``solver``), counterfactual regret minimization
and its policies (``cfr``), exact best responses and exploitability (``exact``). The agents
play what these compute.

May import: ``regalia.views``, ``regalia.registry``, ``regalia.reference``, ``regalia.core``.
"""
