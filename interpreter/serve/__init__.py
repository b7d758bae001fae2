"""`umpire serve`: the workbench in a browser (app.py: the Starlette application; workbench.py: runs,
citations and files; table.py: a game played; odds.py: the odds panel; static/: the page)."""
