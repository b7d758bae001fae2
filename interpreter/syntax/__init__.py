"""Text to parse tree: grammar loading, spans, diagnostics and their rendering."""
