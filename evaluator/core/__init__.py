"""The core stage (see DESIGN.md)."""
