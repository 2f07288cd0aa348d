"""What every game's notation shares: the lexer (tokens, headers, turn prefixes, places in
the text) and the reports of reading (:class:`NotationError`, :class:`Flagged`,
:class:`PayloadProblem`).  Each game package adds its decisions, reader and writer."""
