"""The foundation every other part stands on: the errors (``errors``), the names of kinds
(``kinds``), seeds (``seeds``), JSON reading with limits (``jsontext``), what an action id
means (``actions``) and an observation holds (``observations``), card data (``cards``),
policy files (``policy_file``), and a seat's view (``view``): what one seat may see.

May import: the extension ``regalia._core`` and nothing else of the package.
"""
