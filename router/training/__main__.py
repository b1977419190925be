"""``python -m router.training``: runs :func:`router.training.cli.main`."""

from router.training.cli import main

raise SystemExit(main())
