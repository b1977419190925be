"""``thrifty eval shaping``: output caps and prompt shaping on a seeded agent/RAG trace."""
