"""The web table (``cardrules serve``, the optional ``web`` extra): a local
page to play any game from one seat against an agent, step through replays
and read balance reports. A game at the page is an
``interpreter.tables.Table`` (as at the terminal); ``views`` turns a game
into what the page draws, ``app`` serves it."""
