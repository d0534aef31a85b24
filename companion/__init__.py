"""Table Companion: a referee for real card tables."""

__version__ = "0.1.0"
