"""`umpire schema`: the JSON schema of the IR, as pydantic derives it from ir/nodes.py."""

from __future__ import annotations

import json


def cmd_schema() -> int:
    from ..ir import nodes as n

    print(json.dumps(n.Ruleset.model_json_schema(), indent=1))
    return 0
