"""Where numba keeps compiled engines: a cache folder named after the engines' source code.

numba checks only the timestamp of the file that defines a compiled function, so an engine whose
imported helpers or policies changed would keep running stale machine code from ``__pycache__``.
Naming the cache folder after a hash of every source file of ``simulator/`` and ``policies/``
makes any edit start a fresh cache, while an unchanged checkout (and every worker process of a
run, local or on a cluster) reuses the compiled code.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.abc
import importlib.util
import os
import sys
import threading
from pathlib import Path

_PACKAGES = ("simulator", "policies")


def source_digest(root: Path) -> str:
    """Hash of the Python sources the compiled engines are built from."""
    digest = hashlib.sha256()
    for package in _PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            digest.update(str(path.relative_to(root)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


@functools.cache
def engine_source() -> str:
    """Hash of the sources of this installation's engines and policies (recorded in manifests)."""
    return source_digest(Path(__file__).resolve().parents[2])


def cache_root() -> Path:
    """``$BALANCE_CACHE_DIR``, else ``$XDG_CACHE_HOME/balance``, else ``~/.cache/balance``."""
    if os.environ.get("BALANCE_CACHE_DIR"):
        return Path(os.environ["BALANCE_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "balance"


def cache_folder() -> Path:
    """The JIT cache folder of the current sources."""
    return cache_root() / f"numba-{engine_source()}"


def configure_cache() -> Path | None:
    """Point numba's cache at the folder for the current sources; returns it (None if unusable)."""
    folder = cache_folder()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None  # numba falls back to __pycache__ beside the sources
    os.environ["NUMBA_CACHE_DIR"] = str(folder)
    try:
        import numba.core.config as numba_config
    except ImportError:
        return folder
    numba_config.CACHE_DIR = str(folder)  # read when each cached function is decorated
    return folder


def compile_calls_unliteral() -> None:
    """Compile one specialisation per argument type, not per constant, for calls between the
    project's compiled functions.

    numba types a constant argument of a call from compiled code as its literal value
    (``Literal[int](0)``), and compiles the callee again for every distinct combination of
    constants at its call sites, with everything it calls: one engine's ``log_event`` had 19
    signatures. Calls to functions outside numba's own modules are typed by plain types instead
    (``int64``, ``bool``), as a call from Python is; numba's own overloads, which may need a
    literal (a dtype, a tuple index), are left alone. Idempotent.
    """
    from numba.core import types
    from numba.core.dispatcher import Dispatcher

    if getattr(Dispatcher.get_call_template, "_balance_unliteral", False):
        return
    original = Dispatcher.get_call_template

    def get_call_template(self, args, kws):  # noqa: ANN001, ANN202 (numba's own signature)
        if not self.py_func.__module__.startswith("numba"):
            args = tuple(types.unliteral(a) for a in args)
            kws = {k: types.unliteral(v) for k, v in kws.items()}
        return original(self, args, kws)

    get_call_template._balance_unliteral = True
    Dispatcher.get_call_template = get_call_template


# Whether the compile in progress on this thread was asked for by compiled code (a call typed
# inside another of the project's compiled functions) rather than by a call from Python.
_FOR_COMPILED = threading.local()


def _ours(dispatcher) -> bool:  # noqa: ANN001 (numba's dispatcher)
    return not dispatcher.py_func.__module__.startswith("numba")


def _for_compiled() -> bool:
    return getattr(_FOR_COMPILED, "active", False)


def compile_callees_without_python_entry() -> None:
    """Compile the project's functions without their Python entry when compiled code calls them.

    numba builds two wrappers around every function it compiles: one that Python can call
    (unboxing each argument: a board of 12 arrays, the rules record) and one for use as a C
    function pointer. A function called only from other compiled functions never uses either,
    yet both were a third of a cold compile (one default engine's 32 against 20 CPU
    seconds without them; docs/performance.md). So a function compiled for a compiled caller
    gets neither; if Python later calls it with the same types, it is compiled again with them
    (the wrapper-less version is never offered to Python, which would call a null address).
    The two versions are cached under different keys. Idempotent.
    """
    from numba.core import caching, sigutils
    from numba.core.compiler_lock import global_compiler_lock
    from numba.core.dispatcher import Dispatcher, _FunctionCompiler

    if getattr(Dispatcher.compile, "_balance_for_compiled", False):
        return
    original_template = Dispatcher.get_call_template
    original_compile = Dispatcher.compile
    original_add = Dispatcher.add_overload
    original_flags = _FunctionCompiler._customize_flags
    original_key = caching.Cache._index_key

    @functools.wraps(original_template)
    def get_call_template(self, args, kws):  # noqa: ANN001, ANN202 (numba's own signature)
        before = _for_compiled()
        _FOR_COMPILED.active = _ours(self)
        try:
            return original_template(self, args, kws)
        finally:
            _FOR_COMPILED.active = before

    @functools.wraps(original_compile)
    def compile(self, sig):  # noqa: ANN001, ANN202
        with global_compiler_lock:
            args = tuple(sigutils.normalize_signature(sig)[0])
            without_entry = self.__dict__.setdefault("_balance_without_entry", set())
            if not _for_compiled() and args in without_entry:
                # Python calls a function so far compiled only for compiled callers
                del self.overloads[args]
                without_entry.discard(args)
            return original_compile(self, sig)

    @functools.wraps(original_add)
    def add_overload(self, cres):  # noqa: ANN001, ANN202
        if not (_for_compiled() and _ours(self)):
            return original_add(self, cres)
        # no Python entry: kept for compiled callers, not offered to calls from Python
        args = tuple(cres.signature.args)
        self.overloads[args] = cres
        self.__dict__.setdefault("_balance_without_entry", set()).add(args)
        return None

    def customize_flags(self, flags):  # noqa: ANN001, ANN202
        flags = original_flags(self, flags)
        if _for_compiled():
            flags.no_cpython_wrapper = True
            flags.no_cfunc_wrapper = True
        return flags

    def index_key(self, sig, codegen):  # noqa: ANN001, ANN202
        key = original_key(self, sig, codegen)
        return (*key, "for compiled callers") if _for_compiled() else key

    compile._balance_for_compiled = True
    Dispatcher.get_call_template = get_call_template
    Dispatcher.compile = compile
    Dispatcher.add_overload = add_overload
    _FunctionCompiler._customize_flags = customize_flags
    caching.Cache._index_key = index_key


def link_callees_without_machine_code() -> None:
    """Neither optimise as a whole nor turn into machine code a function compiled without a
    Python entry.

    Such a function (:func:`compile_callees_without_python_entry`) runs only inside its
    callers: numba links its LLVM code into each caller, where it is optimised and turned into
    machine code with the caller's. Its own module was optimised and turned into machine code
    as well, work only a call from Python would have used: 29% to 44% of a default engine's
    cold compile (docs/performance.md). So its library is linked (each of its
    functions already optimised on its own, as numba does before linking) and handed to no JIT
    engine, and the cache keeps its LLVM bitcode, all a later caller links. A caller carrying
    such code sets the environments it refers to (a message an error makes at run time reads
    them), as numba does when it loads a caller from the cache. Idempotent; installs
    :func:`compile_callees_without_python_entry` first.
    """
    import llvmlite.binding as ll
    from numba.core import codegen, cpu
    from numba.core.environment import lookup_environment

    compile_callees_without_python_entry()
    if getattr(cpu.CPUContext.get_executable, "_balance_linking_only", False):
        return
    original_executable = cpu.CPUContext.get_executable
    original_serialize = codegen.CPUCodeLibrary.serialize_using_object_code
    original_unserialize = codegen.CPUCodeLibrary._unserialize.__func__
    original_set_env = codegen.JITCPUCodegen.set_env

    def finalize_for_linking(library) -> None:  # noqa: ANN001 (numba's code library)
        """numba's own ``finalize`` (its callees linked in, its checks), less the module's
        optimisation (its callers optimise it) and the JIT engine (nothing calls it there)."""

        def ready() -> None:
            library._finalize_dynamic_globals()
            library._verify_declare_only_symbols()
            library._finalized = True

        library._optimize_final_module = lambda: None
        library._finalize_final_module = ready
        try:
            library.finalize()
        finally:
            del library._optimize_final_module, library._finalize_final_module
        library._balance_linking_only = True

    def set_referenced_environments(library, own: str) -> None:  # noqa: ANN001
        for gv in library._final_module.global_variables:
            if gv.name.startswith("_ZN08NumbaEnv") and gv.name != own:
                env = lookup_environment(gv.name)
                if env is not None:
                    library.codegen.set_env(gv.name, env)

    def get_executable(self, library, fndesc, env):  # noqa: ANN001, ANN202 (numba's signature)
        from numba import _dynfunc

        linking_only = getattr(library, "_balance_linking_only", False)
        if not linking_only and _for_compiled() and not library._finalized:
            unresolved = any(
                gv.name.startswith(codegen.RuntimeLinker.PREFIX)
                for gv in library._final_module.global_variables
            )  # a recursive function needs the engine to resolve its own address
            if not unresolved:
                finalize_for_linking(library)
                linking_only = True
        if not linking_only:
            cfunc = original_executable(self, library, fndesc, env)
            set_referenced_environments(library, self.get_env_name(fndesc))
            return cfunc
        name = fndesc.qualname.split(".")[-1]
        doc = f"compiled for compiled callers: {fndesc.qualname!r}"
        return _dynfunc.make_function(fndesc.lookup_module(), name, doc, 0, env, (library,))

    def serialize_using_object_code(self):  # noqa: ANN001, ANN202
        if getattr(self, "_balance_linking_only", False):
            return (self.name, _LINKING_ONLY, self._get_module_for_linking().as_bitcode())
        return original_serialize(self)

    def unserialize(cls, codegen_, state):  # noqa: ANN001, ANN202
        name, kind, data = state
        if kind != _LINKING_ONLY:
            return original_unserialize(cls, codegen_, state)
        library = codegen_.create_library(name)
        library._final_module = ll.parse_bitcode(data)
        library._shared_module = library._final_module
        library._finalized = True
        library._balance_linking_only = True
        return library

    def set_env(self, env_name, env):  # noqa: ANN001, ANN202
        if self._engine.get_global_value_address(env_name):  # 0: not in the engine
            original_set_env(self, env_name, env)

    get_executable._balance_linking_only = True
    cpu.CPUContext.get_executable = get_executable
    codegen.CPUCodeLibrary.serialize_using_object_code = serialize_using_object_code
    codegen.CPUCodeLibrary._unserialize = classmethod(unserialize)
    codegen.JITCPUCodegen.set_env = set_env


# The cache's name for a library kept as LLVM bitcode only (numba's own are "object", "bitcode").
_LINKING_ONLY = "balance-linking-only"


# LLVM's non-trivial loop unswitching (on at numba's default -O3) copies a loop once per branch
# whose condition does not change inside it, and again for the next such branch. A task
# evaluator that switches on the task kind around loops over tricks and cards took 34 CPU
# seconds to compile instead of 4, and the copies made no engine faster (docs/performance.md).
# A cost threshold of 1 turns it off; trivial unswitching stays.
UNSWITCH_THRESHOLD = "1"


def limit_loop_unswitching() -> None:
    """Set LLVM's loop-unswitch threshold for this process: ``$BALANCE_UNSWITCH_THRESHOLD`` (a
    whole number from 1; ``llvm`` keeps LLVM's own, for measuring the difference), else
    ``UNSWITCH_THRESHOLD``."""
    value = os.environ.get("BALANCE_UNSWITCH_THRESHOLD", UNSWITCH_THRESHOLD)
    if value == "llvm":
        return
    if not value.isdigit() or int(value) < 1:
        value = UNSWITCH_THRESHOLD  # LLVM aborts the process on a threshold below 1
    import llvmlite.binding as llvm

    llvm.set_option("balance", f"-unswitch-threshold={value}")


def prepare_numba() -> None:
    """Everything above, for this process: the cache folder, the loop-unswitch threshold and
    the compile's three changes. Idempotent; imports numba."""
    configure_cache()  # before any engine is compiled: numba's cache folder follows the sources
    limit_loop_unswitching()
    compile_calls_unliteral()
    compile_callees_without_python_entry()
    link_callees_without_machine_code()


class _PrepareNumbaOnImport(importlib.abc.MetaPathFinder):
    """Runs :func:`prepare_numba` right after numba's own package has run, before the module
    that imported it goes on (and so before any function is decorated or compiled)."""

    def find_spec(self, fullname, path, target=None):  # noqa: ANN001, ANN201 (importlib's)
        if fullname != "numba":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(fullname)
        if spec is None or spec.loader is None:
            return spec
        run_package = spec.loader.exec_module

        def exec_module(module) -> None:  # noqa: ANN001
            run_package(module)
            prepare_numba()

        spec.loader.exec_module = exec_module
        return spec


def prepare_numba_when_imported() -> None:
    """:func:`prepare_numba` when numba is first imported (now, if it already is).

    numba takes about a second to import; a command that compiles nothing (``--help``, a
    report, a game file's run) never imports it, and one that does (a game's engine, a policy,
    a test, a worker process) gets numba prepared before its first decorator runs, wherever it
    is imported from.
    """
    if "numba" in sys.modules:
        prepare_numba()
    elif not any(isinstance(f, _PrepareNumbaOnImport) for f in sys.meta_path):
        sys.meta_path.insert(0, _PrepareNumbaOnImport())
