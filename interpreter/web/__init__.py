"""The web table (``cardrules serve``, the optional ``web`` extra): a local
page to play any game from one seat against an agent, step through replays
and read balance reports. ``table`` keeps a game as its actions, ``views``
turns a game into what the page draws, ``app`` serves both."""
