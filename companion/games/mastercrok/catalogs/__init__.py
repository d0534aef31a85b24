"""Catalogs shipped with the program (``NAME.toml``), read by ``files.shipped_catalog``."""
