"""Pictures of a position (`umpire draw`, `play --draw`, `explain --draw`): an SVG drawn from the
ruleset's map declarations and the engine's state, with no drawing code for any one game.

The stages, one module each, data flowing one way:

- `scene.py` reads the live engine state (as a side sees it, with fog of war) into plain data:
  the stacks in each place, the boxes, tracks and game values. It is taken at a moment of a run
  (a trace line, a turn's start) and kept, since the engine goes on changing.
- `layout.py` gives each place a centre and an outline: computed from the id on hex and square
  grids, from the scenario's `at X, Y` on areas and points, else laid out in a grid (and said so).
- `counters.py` draws a stack: each counter in its side's colour (`colours.py`) with its type
  and printed values, the units aboard it beside it.
- `svg.py` draws the whole picture with drawsvg: the map, the stacks, the boxes and tracks
  beside it, the legend.
"""
