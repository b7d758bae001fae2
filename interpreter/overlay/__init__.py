"""Overlays (errata, house rules): a stage of their own between checking and running.

An overlay file is parsed by the one grammar (`overlay_file`), built into its own IR
(`ir.py`: labelled, cited amendments whose bodies are the language's rows, modifiers,
statements and declarations) and applied to a copy of the base ruleset (`apply.py`, which
drives `order.py`, `locate.py`, `amender.py` and `describe.py`), which the checker then checks
as any ruleset. The base IR is never changed.
"""
