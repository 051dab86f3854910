"""Command line: ``python -m engines simulate GAME --games N --seed S [--players P] [--ai A,B]``."""

from engines.simulate import main

if __name__ == "__main__":
    raise SystemExit(main())
