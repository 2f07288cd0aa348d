"""Classic Splendor's board: ``table.html`` (bank, nobles, the display by level) and
``player.html`` (a seat's panel), drawn by :mod:`.pieces`."""
