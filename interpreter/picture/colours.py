"""Each side's colour, chosen from the order the game header lists its sides: the same side is
drawn in the same colour in every picture of a game."""

from __future__ import annotations

# Dark enough for white text on a counter, far enough apart to tell at a glance.
_PALETTE = ("#b03a2e", "#1f5f99", "#2e7d32", "#8e5a00", "#6a3d9a", "#00796b", "#c2185b", "#455a64")
NEUTRAL = "#6d6d6d"  # a unit or a mark of no side the header names


def side_colours(sides: list[str]) -> dict[str, str]:
    """Side name -> its colour, in header order (the palette repeats beyond eight sides)."""
    return {side: _PALETTE[i % len(_PALETTE)] for i, side in enumerate(sides)}


def tint(colour: str, share: float = 0.75) -> str:
    """The colour mixed with white (``share`` of white): the light fill of a side's mark or cargo tag."""
    if len(colour) == 4:
        colour = "#" + "".join(ch * 2 for ch in colour[1:])
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    mixed = (round(c + (255 - c) * share) for c in (r, g, b))
    return "#" + "".join(f"{c:02x}" for c in mixed)


def readable_on(colour: str) -> str:
    """Black or white, whichever reads on the colour (a pale side's counters take black text)."""
    if not colour.startswith("#") or len(colour) not in (4, 7):
        return "white"
    if len(colour) == 4:
        colour = "#" + "".join(ch * 2 for ch in colour[1:])
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return "#111111" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "white"
