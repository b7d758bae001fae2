"""Editor support: the TextMate grammar generated from the language's grammar (textmate.py) and the
language server (lsp.py), both built from the stages the command line uses and nothing else."""
