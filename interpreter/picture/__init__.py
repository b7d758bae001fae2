"""Pictures of a position (`umpire draw`, `play --draw`, `explain --draw`): an SVG drawn from the
ruleset's map declarations and the engine's state, with no drawing code for any one game.

The stages, one module each, data flowing one way:

- `scene.py` reads the live engine state (as a side sees it, with fog of war) into plain data:
  the stacks in each place, the boxes, tracks and game values. It is taken at a moment of a run
  (a trace line, a turn's start) and kept, since the engine goes on changing.
- `layout.py` gives each place a centre and an outline: computed from the id on hex and square
  grids, from the scenario's `at X, Y` on areas and points, else laid out in a grid (and said so).
- `look.py` reads the ruleset's `look` declarations (language 6.3c): side colours, each place's
  fill, pattern, outline and mark by its properties, edge and border lines, each class or type's
  counter (symbol, printed factors, reduced face, own colour), whose colour a unit shows.
- `counters.py` draws a pile of counters: each in its owner's colour (`colours.py`) with its id,
  symbol and factors, its reduced face pale and banded, the units aboard as chips at its foot.
- `svg.py` draws the whole picture with drawsvg: the heading and demo banner, the map with its
  terrain, borders, edges, marked names and piles, and the panel (legend and map key, tracks,
  boxes) beside or below it.
"""
