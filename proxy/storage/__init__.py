"""Storage: the database engine and tables, the request log and its journal, migrations, database URLs and the read-only statistics queries."""
