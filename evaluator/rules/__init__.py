"""The rules stage (see DESIGN.md)."""
