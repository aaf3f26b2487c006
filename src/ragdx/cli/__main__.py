"""``python -m ragdx.cli``: the same entry point as the ``ragdx`` script."""

from ragdx.cli.main import main

main()
