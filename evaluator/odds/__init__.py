"""The odds stage (see DESIGN.md)."""
