"""Running code written for Gym Retro / stable-retro on retrogym, unchanged: ``import retro`` and ``import
stable_retro`` (and their submodules) give retrogym's modules once the alias is installed.

    import retrogym.compat
    retrogym.compat.install_alias()
    import retro                      # retrogym
    env = retro.make("Airstriker-Genesis")

or, for a whole script, ``python -m retrogym.compat script.py [args]`` (``-m module`` runs a module instead), or
``RETROGYM_ALIAS_RETRO=1`` in the environment, which installs the alias when ``retrogym`` is imported. Off by default:
without it, ``import retro`` finds whatever package of that name is installed. No ``.pth`` file is involved: the
alias is a ``sys.meta_path`` finder put first by :func:`install_alias` and taken away by :func:`remove_alias`.

Module names map as: ``retro`` -> ``retrogym``, ``retro.X`` -> ``retrogym.X``, except ``retro.retro_env`` ->
``retrogym.env``; ``stable_retro`` likewise.
"""
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import runpy
import sys

__all__ = ["install_alias", "remove_alias", "alias_installed", "ALIASES"]

ALIASES = ("retro", "stable_retro")
# stable-retro module names that differ from ours
_RENAMED = {"retro_env": "env", "_retro": "_retrogym"}


def _target(name):
    """The retrogym module an aliased name stands for, or None when the name is not aliased."""
    for alias in ALIASES:
        if name == alias:
            return "retrogym"
        if name.startswith(alias + "."):
            parts = name[len(alias) + 1:].split(".")
            parts[0] = _RENAMED.get(parts[0], parts[0])
            return ".".join(["retrogym"] + parts)
    return None


class _AliasLoader(importlib.abc.Loader):
    def __init__(self, target):
        self.target = target

    def create_module(self, spec):
        return None  # a placeholder, replaced in exec_module

    def exec_module(self, module):
        # The import system returns whatever sys.modules holds under the name once this returns: the real module.
        sys.modules[module.__name__] = importlib.import_module(self.target)


class _AliasFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        real = _target(fullname)
        if real is None:
            return None
        if importlib.util.find_spec(real) is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, _AliasLoader(real))


_finder = _AliasFinder()


def alias_installed():
    return _finder in sys.meta_path


def install_alias():
    """Makes ``retro`` and ``stable_retro`` (and their submodules) import as retrogym's. Modules of those names
    imported before are replaced in ``sys.modules``. Idempotent."""
    for name in list(sys.modules):
        if _target(name) is not None:
            del sys.modules[name]
    if _finder not in sys.meta_path:
        sys.meta_path.insert(0, _finder)


def remove_alias():
    """Takes the alias away; names imported through it are dropped from ``sys.modules`` (retrogym's stay)."""
    while _finder in sys.meta_path:
        sys.meta_path.remove(_finder)
    for name in list(sys.modules):
        if _target(name) is not None and sys.modules[name] is sys.modules.get(_target(name)):
            del sys.modules[name]


def main(argv=None):
    """``python -m retrogym.compat script.py [args]`` or ``python -m retrogym.compat -m module [args]``."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        print("usage: python -m retrogym.compat SCRIPT [ARGS...] | -m MODULE [ARGS...]\n"
              "Runs Gym Retro / stable-retro code with `import retro` and `import stable_retro` giving retrogym.")
        return 0 if argv else 2
    install_alias()
    if argv[0] == "-m":
        if len(argv) < 2:
            print("python -m retrogym.compat: -m needs a module name", file=sys.stderr)
            return 2
        sys.argv = argv[1:]
        runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
    else:
        sys.argv = argv
        runpy.run_path(argv[0], run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main())
