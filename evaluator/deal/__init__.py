"""The deal stage (see DESIGN.md): games whose outcome depends on how the cards were dealt."""
