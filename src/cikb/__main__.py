"""`python -m cikb` is the `cikb` command."""

from cikb.cli import main

main()
