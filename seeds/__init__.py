"""Rulebook facts as data (JSON); a package only so that the installed flagfall finds them (flagfall.data)."""
