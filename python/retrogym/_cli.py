"""The ``retrogym`` command of a pip install (docs/install.md): execs the C command-line tool that the wheel carries in
``retrogym/_bin/retrogym``. ``$RETROGYM_PYTHON`` (the Python the CLI asks where stable-retro is, and that runs
``retrogym ui``) is this interpreter unless it is set already. The tool finds the package's integrations
(``retrogym/data``) and the libretro builds of our cores (``retrogym/cores``) beside its own folder.
"""
import os
import sys

PACKAGE = os.path.dirname(os.path.abspath(__file__))
BINARY = os.path.join(PACKAGE, "_bin", "retrogym")


def command_env(environ=None):
    """The environment the C tool runs with (a copy of ``environ``, by default ``os.environ``)."""
    env = dict(os.environ if environ is None else environ)
    env.setdefault("RETROGYM_PYTHON", sys.executable)
    return env


def main(argv=None):
    """Replaces this process with the C tool (its exit status is the command's)."""
    args = sys.argv[1:] if argv is None else list(argv)
    if not os.access(BINARY, os.X_OK):
        sys.stderr.write(
            f"retrogym: the command-line tool is not in this installation ({BINARY} is missing): it is built with "
            "the package (RG_BUILD_CLI, docs/install.md); the Python API works without it\n"
        )
        return 127
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(BINARY, ["retrogym", *args], command_env())
    return 127  # not reached


if __name__ == "__main__":
    sys.exit(main())
