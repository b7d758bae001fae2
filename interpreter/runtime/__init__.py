"""The runtime: game state, dice providers, agents, the executor and its trace."""
