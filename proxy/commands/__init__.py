"""The ``thrifty`` subcommands that are neither serving nor a package's own CLI: ``pull`` and the router's log export and escalation training."""
