"""The runtime: the checked program run, in rooms by what they are for, each importing only the rooms
below it (pyproject.toml, [tool.importlinter]):

    odds/       exact and sampled odds: branching over positions, the chance graph, policies, the report
    games/      whole games: the driver, agents, search, the human player, scenarios, set-up, explanations
    position/   a game in progress as data: taken and restored, written as TOML, a save's checks
    execution/  the machine: lowering, the engine, built-ins, dice, cups, calendar, the state
    world/      the map at run time: its geometry's built-ins, weighted paths, fog of war
    common/     what every room speaks: run-time values, the requests a procedure waits on, its errors
"""
