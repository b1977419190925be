"""``thrifty bench ui``: seed a large request log and time every admin UI page."""
