"""tablelog's game engines: pure rules, state, events and notation.

Nothing in this package does I/O, reads a clock or draws a random number of its own.
Each game lives in its own subpackage behind the small protocol in
:mod:`engine.protocol`; :func:`engine.games.get_game` finds one by its kind, among the
games installed packages declare (the one outside reading: :mod:`gameindex` reads their
entry points and hands the registry a table of names).
"""
