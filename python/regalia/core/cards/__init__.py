"""What the cards of some games are, as plain data and rankings, shared by the pure-Python
reference rules, the rule-based players and the text renderers (none of them owns it):
Regnum's card set (``regalia.core.cards.regnum``) and Regine's cards and how a combination ranks
for each Suit (``regalia.core.cards.regine``)."""
