"""The compiled stage (see DESIGN.md)."""
