"""The map's grids: hex and square place ids, the neighbours and compass directions a grid gives a
place, computed from the id alone. The checker reads the id formats and directions, the runtime
sets up adjacency and answers the map's built-ins with them, the pictures lay the map out."""
