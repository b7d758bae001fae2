"""The world at run time: the built-ins of the map's geometry, weighted paths over it, and the trace as
one side sees it (fog of war). The geometry itself is interpreter/grids/."""
