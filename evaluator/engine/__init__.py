"""The engine stage (see DESIGN.md)."""
