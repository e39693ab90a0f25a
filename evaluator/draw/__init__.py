"""The draw stage (see DESIGN.md)."""
