"""``python -m rerank_plus.cli`` runs the command line."""

import sys

from rerank_plus.cli import main

sys.exit(main())
