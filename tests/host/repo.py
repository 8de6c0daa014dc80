"""Where the repository's parts are, for the tests: its root, and the environment that a subprocess
running this tree's flagfall is started with.

The tests' own imports find host/, firmware/ and tests/core through pytest's `pythonpath`
(pyproject.toml); a subprocess gets the same two folders on its PYTHONPATH here, so that it runs
this tree whatever folder .venv's editable install points at.
"""
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def flagfall_env(**extra):
    """os.environ with this tree's host/ and firmware/ as PYTHONPATH, and `extra` variables."""
    return dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "host"), os.path.join(ROOT, "firmware")]),
                **extra)
