"""One module per command; ``regalia.cli.app`` registers them."""
