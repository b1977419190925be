"""Configuration: the settings loaded from TOML and ``THRIFTY_*`` variables (the only reader of either), section by section."""
