"""The editor's side of cardrules: what a language server answers about a
rules, card, deck or ruling file as it stands in an editor (``features``:
diagnostics, completion, hover, definitions, with no protocol in them) and
the language server that speaks LSP over stdio with them (``server``, needs
the optional ``lsp`` extra: pygls)."""
