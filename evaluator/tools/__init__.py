"""The tools stage (see DESIGN.md)."""
