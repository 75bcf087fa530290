"""The foundation every other part stands on: the errors (``errors``), the names of kinds
(``kinds``), seeds (``seeds``), JSON reading with limits (``jsontext``), what an action id
means (``actions``) and an observation holds (``observations``), card data (``cards``),
policy files (``policy_file``), a seat's view (``view``): what one seat may see, the game
contract as types (``protocols``), and the one door to the Rust engine (``engine``).

May import: the extension ``regalia._core`` (in ``engine`` alone) and nothing else of the
package.
"""
