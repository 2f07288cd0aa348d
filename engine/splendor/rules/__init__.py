"""The rules of classic Splendor, one module per family of decisions, each holding its
checks and its effects side by side: :mod:`.start` (the setup), :mod:`.tokens` (taking
and returning tokens), :mod:`.cards` (reserving, buying, the display refilled, a blind
reserve shown), :mod:`.turn` (nobles, the end of a turn and of the game, what is out of
order) and :mod:`.moves` (every legal next decision).  :mod:`.facts` holds the rulebook
citations.  :mod:`engine.splendor.game` dispatches events to them."""
