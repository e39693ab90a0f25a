"""The version of pokerrules (the package metadata says the same once installed)."""

__version__ = "0.2.0"
