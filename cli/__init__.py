"""tablelog's command line: one click group, ``tablelog``, over the library."""
