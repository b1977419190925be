"""The router's evaluations: ``thrifty eval router`` (APGR / CPT, several seeds) and ``thrifty eval
cascade`` (the escalation model on a live small model's answers)."""
