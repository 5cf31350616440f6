"""The language: reading and checking a game's text files.

Every lark call and the outline of the file formats (``syntax``), a game's
words and the grammar generated from them (``vocabulary``), the AST
(``ast``) and how parse trees become it (``transformer``), the canonical
renderer (``render``), rules files (``game_rules``: what a game declares;
``rules_file``: reading it), card files (``cards``), deck files (``decks``),
loading a whole game with its cross-file checks (``games``) and
``cardrules explain`` (``explain``). Nothing here runs a game.
"""
