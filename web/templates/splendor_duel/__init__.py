"""Splendor Duel's board: ``table.html`` (board, bag, pyramid, Royal cards),
``player.html`` (a seat's panel) and :mod:`.pieces` (tokens, cards, Royal cards)."""
