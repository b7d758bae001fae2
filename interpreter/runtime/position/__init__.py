"""The position: a game in progress taken out of the engine and put back, written as plain data (TOML)
and read back checked, and a save's checks against the game it names."""
