"""The typed IR: frozen pydantic nodes, each with its source span and rule citation."""
