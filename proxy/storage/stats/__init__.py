"""Read-only statistics queries over the request log, feedback, router and cache tables, one module per
concern of the admin UI's pages.

The one place where the admin JSON API (``proxy.http.admin``) and the web UI (``proxy.ui``) get their
numbers: both call these functions, neither writes its own SQL. Every function takes an open
``AsyncConnection`` and works on SQLite and PostgreSQL; time filters use the ``created_at`` index.

Percentiles are computed in Python over a bounded sample (the most recent rows of a range), so
they cost the same on both databases and stay fast on large logs."""
