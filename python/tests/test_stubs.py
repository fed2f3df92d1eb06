"""The extension module's stubs (retrogym/_retrogym.pyi) against the built module, and the module's multi-phase
initialisation: each load makes a module object with its own heap types, freed with it, and it loads in a
subinterpreter (docs/python.md, "The extension module")."""
import ast
import gc
import importlib.machinery
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import textwrap
import weakref

import pytest

import retrogym
from retrogym import _retrogym as C

from conftest import GAME

PACKAGE = os.path.dirname(os.path.abspath(retrogym.__file__))
SOURCE_STUB = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "retrogym", "_retrogym.pyi")
# The stub that ships with the package when it is installed; the source tree's otherwise.
STUB = next(p for p in (os.path.join(PACKAGE, "_retrogym.pyi"), SOURCE_STUB) if os.path.exists(p))
EXTRA_DUNDERS = {"__enter__", "__exit__"}


def _stub():
    """{name: ast node} of the stub's top level, and {class: {member: node}}."""
    with open(STUB, encoding="utf-8") as f:
        tree = ast.parse(f.read(), STUB)
    top, classes = {}, {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            top[node.name] = node
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            top[node.target.id] = node
        if isinstance(node, ast.ClassDef):
            members = {}
            for m in node.body:
                if isinstance(m, ast.FunctionDef):
                    members[m.name] = m
                elif isinstance(m, ast.AnnAssign) and isinstance(m.target, ast.Name):
                    members[m.target.id] = m
            classes[node.name] = members
    # private aliases of the stub (_Path, ...) are not the module's
    top = {k: v for k, v in top.items() if not (k.startswith("_") and isinstance(v, ast.Assign))}
    return top, classes


def _public(names):
    return {n for n in names if not n.startswith("__") or n in EXTRA_DUNDERS}


def test_stub_names_are_the_modules():
    top, classes = _stub()
    runtime = _public(n for n in dir(C) if not n.startswith("__"))
    assert set(top) == runtime, f"only in the stub: {set(top) - runtime}; only in the module: {runtime - set(top)}"
    for cls, members in classes.items():
        rt = _public(vars(getattr(C, cls)))
        stub = _public(members) - {"__init__"}
        assert stub == rt, f"{cls}: only in the stub: {stub - rt}; only in the module: {rt - stub}"


def _is_property(node):
    return isinstance(node, ast.FunctionDef) and any(
        isinstance(d, ast.Name) and d.id == "property" for d in node.decorator_list
    )


def test_stub_kinds_are_the_modules():
    """Functions are functions, constants have the stub's type, properties are read-only getters and plain
    annotated attributes writable ones."""
    top, classes = _stub()
    for name, node in top.items():
        value = getattr(C, name)
        if isinstance(node, ast.FunctionDef):
            assert callable(value) and not isinstance(value, type), name
        elif isinstance(node, ast.ClassDef):
            assert isinstance(value, type), name
            assert not value.__flags__ & (1 << 10), f"{name} is subclassable but final in the stub"  # BASETYPE
        else:
            assert type(value).__name__ == ast.unparse(node.annotation), name
    for cls, members in classes.items():
        for name, node in members.items():
            if name == "__init__":
                continue
            attr = vars(getattr(C, cls))[name]
            kind = type(attr).__name__
            if _is_property(node):
                assert kind == "getset_descriptor", (cls, name)
                with pytest.raises(AttributeError):
                    attr.__set__(getattr(C, cls).__new__(getattr(C, cls)), 0)
            elif isinstance(node, ast.AnnAssign):
                assert kind == "getset_descriptor", (cls, name)
            else:
                assert kind == "method_descriptor", (cls, name)


_DOC_SIG = re.compile(r"^(\w+)\(([^)]*)\)")
_PARAM = re.compile(r"^\*?\w+(=.*)?$")


def _doc_params(doc):
    """The parameters of a docstring that opens with name(a, b=None[, c]) as [(name, optional)], or None when it
    documents them in words."""
    m = _DOC_SIG.match(doc or "")
    if not m:
        return None
    out, optional = [], False
    for part in m.group(2).split(","):
        part = part.strip()
        if part.startswith("["):
            optional, part = True, part[1:]
        part = part.rstrip("]").strip()
        if not part:
            continue
        if not _PARAM.match(part):
            return None
        out.append((part.split("=")[0].lstrip("*"), optional or "=" in part))
    return out


def _stub_params(node, method):
    """[(name, positional-only, has a default)] of a stub function, without self."""
    a = node.args
    positional = a.posonlyargs + a.args
    defaults = [False] * (len(positional) - len(a.defaults)) + [True] * len(a.defaults)
    out = [(p.arg, p in a.posonlyargs, d) for p, d in zip(positional, defaults)]
    out += [(p.arg, False, d is not None) for p, d in zip(a.kwonlyargs, a.kw_defaults)]
    return out[1:] if method else out


def test_documented_signatures_are_the_stubs():
    """Each docstring that spells its signature (the module's own documentation of its arguments) has the stub's
    number of parameters, and the stub's names for those callers may pass by keyword."""
    top, classes = _stub()
    checked = 0
    pairs = [(getattr(C, n), node, False) for n, node in top.items() if isinstance(node, ast.FunctionDef)]
    for cls, members in classes.items():
        pairs += [
            (vars(getattr(C, cls))[n], node, True)
            for n, node in members.items()
            if isinstance(node, ast.FunctionDef) and not _is_property(node) and n != "__init__"
        ]
        init = members.get("__init__")
        if init is not None:
            pairs.append((getattr(C, cls), init, True))  # the type's doc: Cls(args...)
    for obj, node, method in pairs:
        doc = _doc_params(obj.__doc__)
        if doc is None:
            continue
        stub = _stub_params(node, method)
        assert len(doc) == len(stub), f"{node.name}: documented {doc}, stub {stub}"
        for (dname, doptional), (sname, posonly, sdefault) in zip(doc, stub):
            if not posonly:
                assert dname == sname, f"{node.name}: documented {dname}, stub {sname}"
            assert doptional == sdefault, f"{node.name}: {dname} optional in one, required in the other"
        checked += 1
    assert checked >= 60  # most of the module documents its signature this way


def test_mypy_stubtest():
    """mypy's stubtest on the stub against the built module (installed by `make venv`; skipped without it)."""
    pytest.importorskip("mypy.stubtest")
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, "retrogym"))
        open(os.path.join(tmp, "retrogym", "__init__.pyi"), "w").close()
        shutil.copy(STUB, os.path.join(tmp, "retrogym", "_retrogym.pyi"))
        env = dict(os.environ, MYPYPATH=tmp)
        r = subprocess.run(
            [sys.executable, "-m", "mypy.stubtest", "retrogym._retrogym", "--mypy-config-file", os.devnull],
            cwd=tmp, env=env, capture_output=True, text=True, timeout=300,
        )
    assert r.returncode == 0, r.stdout + r.stderr


def test_py_typed_ships():
    assert os.path.exists(os.path.join(os.path.dirname(SOURCE_STUB), "py.typed"))


def _load_fresh():
    """A new module object from the extension's file (as a second import would make it)."""
    path = C.__file__
    loader = importlib.machinery.ExtensionFileLoader("retrogym._retrogym", path)
    spec = importlib.util.spec_from_file_location("retrogym._retrogym", path, loader=loader)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_each_load_has_its_own_types_and_frees_them(tmp_path):
    mod = _load_fresh()
    assert mod is not C
    for name in ("Env", "Pool", "Movie", "Emu"):
        t = getattr(mod, name)
        assert t is not getattr(C, name)
        assert t.__module__ == "retrogym._retrogym" and t.__qualname__ == name
        with pytest.raises(TypeError):
            t.extra = 1  # immutable, as a static type was
    assert mod.version() == C.version() and mod.RG_ENOTFOUND == C.RG_ENOTFOUND

    env = mod.Env(GAME)
    obs, _ = env.reset(seed=1)
    ours = C.Env(GAME)
    assert (ours.reset(seed=1)[0] == obs).all()
    # the search functions check for their own module's Env type (the type in the module's state)
    searches = mod.search_set_new()
    mod.search_value(searches, env, "lives", 3)
    with pytest.raises(TypeError, match="expected a retrogym Env"):
        mod.search_value(searches, ours, "lives", 3)
    with pytest.raises(TypeError, match="expected a retrogym Env"):
        C.search_value(C.search_set_new(), env, "lives", 3)
    ours.close()

    # instances of each type come and go with their heap type's reference counts
    pool = mod.Pool({"game": GAME}, 2)
    assert pool.reset(seed=1)[0].shape == (2,) + obs.shape
    pool.close()
    emu = mod.Emu(retrogym.data.get_romfile_path(GAME))
    emu.run()
    view = emu.ram_view(0, 16)
    movie = mod.Movie(str(tmp_path / "x.bk2"), True)
    movie.configure(GAME, env)
    movie.step()
    movie.close()
    assert mod.Movie(str(tmp_path / "x.bk2")).frame_count == 1
    del pool, emu, movie
    assert len(view) == 16
    del view

    # an instance keeps its type, and so its module, alive; when both go, the module is freed
    gone = weakref.ref(mod)
    env_type = weakref.ref(mod.Env)
    del mod, searches, t
    gc.collect()
    assert gone() is not None
    env.step([0] * env.action_length)
    env.close()
    del env
    gc.collect()
    assert gone() is None and env_type() is None


def test_loads_in_a_subinterpreter(tmp_path):
    """The module loads and runs an episode in a subinterpreter (CPython's _testcapi.run_in_subinterp), the core's
    log messages reaching the subinterpreter's callable from the call that runs without the GIL. NumPy loads once
    per process, so the child imports it in the subinterpreter first."""
    testcapi = pytest.importorskip("_testcapi")
    if not hasattr(testcapi, "run_in_subinterp"):
        pytest.skip("no _testcapi.run_in_subinterp")
    out = tmp_path / "out.txt"
    code = textwrap.dedent(
        f"""
        import importlib.machinery, importlib.util, warnings
        warnings.simplefilter("ignore")
        path = {C.__file__!r}
        loader = importlib.machinery.ExtensionFileLoader("retrogym._retrogym", path)
        spec = importlib.util.spec_from_file_location("retrogym._retrogym", path, loader=loader)
        m = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(m)
        messages = []
        e = m.Env({GAME!r}, data_root={os.path.join(PACKAGE, "data")!r}, log=lambda level, text: messages.append(text),
                  log_level=m.LOG_DEBUG)
        obs, info = e.reset(seed=1)
        r = e.step([0] * e.action_length)
        e.close()
        open({str(out)!r}, "w").write(f"{{obs.shape}} {{len(r)}} {{m.version()}} {{len(messages) > 0}}")
        """
    )
    child = f"import _testcapi, sys; sys.exit(_testcapi.run_in_subinterp({code!r}))"
    r = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert out.read_text() == f"{C.Env(GAME).obs_shape} 5 {C.version()} True"
