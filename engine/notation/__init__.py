"""What every game's notation shares: the reader (:mod:`.reader`) that walks a game's
text (headers, the setup lines, turn lines, comments, marks and notes, ``undo``, errors
with their line and column) and calls a visitor (:mod:`.visitor`: the hooks, and the
light visitors that skip a game, collect its headers or check its syntax), the builder
(:mod:`.builder`) that folds what is read with the game's rules through its contract,
the lexer (:mod:`.lexer`: tokens, the scanner of the turn lines, escapes), what a game
supplies to them (:mod:`.grammar`: its keywords, decision readers, writer and setup
lines), the writer's marks (:mod:`.marks`) and the reports of reading
(:mod:`.results`: :class:`NotationError`, :class:`Flagged`, :class:`PayloadProblem`)."""
