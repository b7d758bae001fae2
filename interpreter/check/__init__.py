"""Static checks of a ruleset and a scenario: names, arity, types, citations, tables."""
