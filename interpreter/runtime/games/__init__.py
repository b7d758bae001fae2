"""Whole games: the driver that answers a procedure's requests, the agents and the search agent, the
human player at the terminal, scenarios run and their set-up, and the explanation of a trace."""
