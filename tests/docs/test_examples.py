"""The docs say only what the code does: every page starts with an example that works, and every
setting, command line, option, environment variable and metric name a page shows is a real one.

Cheap checks through the real parts, no model loaded: TOML snippets go through
``proxy.config.settings.load_settings``, ``thrifty`` command lines through the CLI's own argparse parsers
(options of delegated commands are looked up in the module the CLI delegates to), environment
variables through the settings loader, metric names through a render of the real metric registries.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import functools
import importlib.util
import re
import shlex
from pathlib import Path
from types import SimpleNamespace

import pytest

from proxy import cli
from proxy.config.settings import Settings, SettingsError, load_settings

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.glob("*.md"))
README = ROOT / "README.md"
RUNTIME_PACKAGES = ("proxy", "backend", "caches", "router", "kernels", "tokenization", "jsonl_text", "json_pointer")
PROXY_URL = "http://127.0.0.1:8000/v1"

_FENCE = re.compile(r"^([ \t]*)```(\w*)\n(.*?)^[ \t]*```", re.M | re.S)
_INLINE = re.compile(r"`(thrifty [^`]+)`")
_OPTION = re.compile(r"--[a-z0-9][a-z0-9-]*")
_LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
_REPO_PATH = re.compile(r"`((?:proxy|backend|caches|router|kernels|benchmarks|tokenization|jsonl_text|migrations|tests)"
                        r"/[\w/.-]+\.(?:py|json|jsonl|joblib|toml))`")
_ENV = re.compile(r"\bTHRIFTY_[A-Z0-9_]*[A-Z0-9]\b(?:=([^\s`]+))?")


@dataclasses.dataclass(frozen=True)
class Block:
    """One fenced code block of a page."""

    page: str
    index: int
    lang: str
    text: str
    offset: int  # character offset of the fence in the page


def blocks(path: Path) -> list[Block]:
    text = path.read_text()
    out = []
    for i, m in enumerate(_FENCE.finditer(text)):
        indent = m.group(1)
        body = "\n".join(line[len(indent):] if line.startswith(indent) else line
                         for line in m.group(3).splitlines())
        out.append(Block(path.name, i, m.group(2), body, m.start()))
    return out


def _all_blocks(lang: str) -> list[Block]:
    return [b for page in PAGES for b in blocks(page) if b.lang == lang]


def command_lines(text: str) -> list[list[str]]:
    """The ``thrifty`` command lines of a shell block, as argv (continuations joined, prompts dropped)."""
    lines = text.replace("\\\n", " ").splitlines()
    out = []
    for line in lines:
        words = shlex.split(line, comments=True)
        while words and re.fullmatch(r"[A-Z_][A-Z0-9_]*=\S*", words[0]):  # VAR=value prefixes
            words = words[1:]
        if words and words[0] == "thrifty":
            out.append(words[1:])
    return out


# --- the CLI --------------------------------------------------------------------------------------


#: the bundled backend's commands, which proxy.cli runs by name: their parsers in backend.cli
BACKEND_PARSERS = {"serve": "serve_parser", "kv_size": "kv_size_parser"}


def _delegate_module(args: argparse.Namespace) -> str | None:
    """The module a delegated command (``thrifty bench proxy`` ...) hands its arguments to
    (``backend.cli`` for the backend's own commands)."""
    if not hasattr(args, "rest"):
        return None
    consts = [c for c in args.func.__code__.co_consts if isinstance(c, str)]
    if "_backend" in args.func.__code__.co_names:
        return "backend.cli"
    names = [c for c in consts if "." in c]
    assert len(names) == 1, f"cannot tell which module {args.func} delegates to"
    return names[0]


def _backend_parser(args: argparse.Namespace) -> argparse.ArgumentParser:
    """The backend's own parser of a ``thrifty backend serve`` / ``thrifty kv-size`` command."""
    import backend.cli

    command = next(c for c in args.func.__code__.co_consts if c in BACKEND_PARSERS)
    return getattr(backend.cli, BACKEND_PARSERS[command])()


def _module_options(module: str) -> set[str]:
    """The ``--options`` a delegated module's source defines (found without importing it)."""
    spec = importlib.util.find_spec(module)
    assert spec is not None and spec.origin, f"the CLI delegates to {module}, which does not exist"
    return set(_OPTION.findall(Path(spec.origin).read_text()))


def _resolve(words: list[str]) -> tuple[argparse.ArgumentParser, list[str]]:
    """The (sub)parser the leading subcommand words of ``words`` reach, and those words."""
    parser = cli.build_parser()
    path = []
    for word in words:
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if not subs or word not in subs[0].choices:
            break
        path.append(word)
        parser = subs[0].choices[word]
    return parser, path


def _is_group(parser: argparse.ArgumentParser) -> bool:
    return any(isinstance(a, argparse._SubParsersAction) for a in parser._actions)


def check_command(argv: list[str]) -> None:
    """``thrifty <argv>`` parses with the real parsers and names only real options."""
    parser = cli.build_parser()
    try:
        args, rest = parser.parse_known_args(argv)
    except SystemExit:
        pytest.fail(f"`thrifty {shlex.join(argv)}` does not parse")
    module = _delegate_module(args)
    if module is None:
        assert not rest, f"`thrifty {shlex.join(argv)}`: unknown arguments {rest}"
        return
    if module in ("proxy.auth.cli", "proxy.batch.cli", "backend.cli"):  # runtime: parse with their own parser
        own = _backend_parser(args) if module == "backend.cli" else importlib.import_module(module).build_parser()
        try:
            own.parse_args(rest)
        except SystemExit:
            pytest.fail(f"`thrifty {shlex.join(argv)}` does not parse with {module}'s parser")
        return
    unknown = {o for o in _OPTION.findall(" ".join(rest))} - _module_options(module)
    assert not unknown, f"`thrifty {shlex.join(argv)}`: {module} has no option {sorted(unknown)}"


def check_inline(span: str) -> None:
    """An inline ``thrifty …`` mention (it may carry ``[--opt]`` and ``a|b`` placeholders): the command
    exists and each option it names is one of that command's."""
    words = span.split()[1:]
    parser, path = _resolve(words)
    rest = words[len(path):]
    options = _OPTION.findall(" ".join(rest))
    if _is_group(parser):  # `thrifty bench …`, `thrifty --help`: a group of commands and its own options
        assert all(w == "…" or w in parser._option_string_actions for w in rest), f"`{span}`: no such command"
        return
    func = parser._defaults.get("func")
    module = _delegate_module(argparse.Namespace(func=func, rest=[])) if "rest" in parser._defaults else None
    if module == "backend.cli":
        parser, module = _backend_parser(argparse.Namespace(func=func)), None
    known = _module_options(module) if module else {o for a in parser._actions for o in a.option_strings}
    unknown = set(options) - known
    assert not unknown, f"`{span}`: no option {sorted(unknown)}"


# --- settings -------------------------------------------------------------------------------------


def check_toml(text: str, tmp_path: Path) -> Settings:
    path = tmp_path / "example.toml"
    path.write_text(text)
    try:
        return load_settings(path, environ={})
    except SettingsError as exc:
        pytest.fail(f"the example does not load: {exc}\n{text}")


def check_env(name: str, value: str | None) -> None:
    """``THRIFTY_<SECTION>__<KEY>`` names a real setting (and a shown value loads); any other
    ``THRIFTY_*`` name is read somewhere in the runtime packages (their Python, or the native kernels' C++)."""
    if "__" in name:
        section, key = name[len("THRIFTY_"):].lower().split("__", 1)
        config = getattr(Settings(), section, None)
        assert dataclasses.is_dataclass(config), f"{name}: there is no [{section}] section"
        assert key in {f.name for f in dataclasses.fields(config)}, f"{name}: [{section}] has no key {key!r}"
        if value is not None:
            settings = load_settings(None, environ={name: value})
            assert str(getattr(getattr(settings, section), key)).lower() == value.lower(), name
        return
    sources = (p.read_text() for package in RUNTIME_PACKAGES for pattern in ("*.py", "*.cpp")
               for p in (ROOT / package).rglob(pattern))
    assert any(f'"{name}"' in source for source in sources), f"{name} is read nowhere in the runtime packages"


# --- metrics --------------------------------------------------------------------------------------


def _exposed_names(text: bytes) -> set[str]:
    out = set(re.findall(r"^# TYPE (\S+) ", text.decode(), re.M))
    out |= set(re.findall(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)[{ ]", text.decode(), re.M))
    return out


class _Anything:
    """Any attribute is 1 (the request log's counters, an engine snapshot)."""

    spec_enabled = True

    def __getattr__(self, name: str) -> int:
        return 1


@functools.cache
def real_metric_names() -> frozenset[str]:
    """Every family and sample name the proxy and the bundled backend expose, all features on."""
    from backend.metrics import BackendMetrics
    from proxy.http.metrics import ProxyMetrics
    from proxy.storage.request_log import LogEntry

    proxy = ProxyMetrics()
    proxy.watch(_Anything(), ["m"])
    proxy.watch_circuits(lambda: {"u": "closed"})
    proxy.refresh_cache_stats  # noqa: B018 - sizes are read at scrape time; the families exist without them
    proxy.observe_request(LogEntry(id="r", key_id="k", endpoint="chat", status_code=200, model_requested="m",
                                   cache_outcome="miss", latency_ms=1.0, ttft_ms=1.0, route="small",
                                   finish_reason="length"))
    proxy.observe_request(LogEntry(id="s", key_id="k", endpoint="chat", status_code=200, model_requested="m",
                                   cache_outcome="exact", latency_ms=1.0, ttft_ms=1.0))
    proxy.upstream_answered("u", 0.1, 503)
    proxy.error_response(429, "rate_limit_exceeded")
    proxy.batch_line(False)
    backend = BackendMetrics("m", lambda: _Anything())
    backend.finished(SimpleNamespace(prompt_tokens=1, completion_tokens=1, total_time=1.0, queue_time=0.1,
                                     ttft=0.1, tpot=0.01))
    return frozenset(_exposed_names(proxy.render()) | _exposed_names(backend.render()) | _declared_names())


_DECLARED = re.compile(r"\b(Counter|Histogram|Gauge)(?:MetricFamily)?\(\s*\"([a-zA-Z_:][a-zA-Z0-9_:]*)\"")


def _declared_names() -> set[str]:
    """Metric families the runtime packages declare with a literal name (some register only when their
    feature is built, such as the embedding counters); a counter is exposed with ``_total``."""
    out = set()
    for package in RUNTIME_PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            for kind, name in _DECLARED.findall(path.read_text()):
                out |= {name, f"{name}_total"} if kind == "Counter" else {name}
    return out


# --- tests ----------------------------------------------------------------------------------------


def test_docs_pages_exist() -> None:
    names = {p.stem for p in PAGES}
    for page in ("configuration", "deployment", "caching", "routing", "shaping", "batches", "keys", "admin-ui",
                 "metrics", "engine-flags", "benchmarks", "clients"):
        assert page in names, f"docs/{page}.md is missing"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_each_page_starts_with_an_example(page: Path) -> None:
    text = page.read_text()
    found = blocks(page)
    assert found, f"{page.name} has no example"
    first_section = text.find("\n## ")
    assert first_section == -1 or found[0].offset < first_section, f"{page.name}: the example is not at the start"
    assert found[0].lang in ("toml", "bash", "python"), f"{page.name}: first example in {found[0].lang!r}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_each_page_first_example_works(page: Path, tmp_path: Path) -> None:
    first = blocks(page)[0]
    if first.lang == "toml":
        check_toml(first.text, tmp_path)
    elif first.lang == "bash":
        commands = command_lines(first.text)
        assert commands, f"{page.name}: the first example runs no thrifty command"
        for argv in commands:
            check_command(argv)
    else:
        check_python(first, page.name)


def check_python(block: Block, where: str) -> None:
    """A Python example compiles, talks to the default proxy URL and names models the default
    configuration serves, with its real context window."""
    tree = ast.parse(block.text, filename=where)
    settings = load_settings(None, environ={})
    public = {m.name for m in settings.models} | {settings.router.public_model, settings.embeddings.model_name}
    strings = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    urls = [s for s in strings if s.startswith("http")]
    assert urls and all(u == PROXY_URL for u in urls), f"{where}: the example does not call {PROXY_URL}: {urls}"
    for call in (n for n in ast.walk(tree) if isinstance(n, ast.Call)):
        for kw in call.keywords:
            if kw.arg == "model" and isinstance(kw.value, ast.Constant):
                assert kw.value.value.removeprefix("openai/") in public, f"{where}: unknown model {kw.value.value!r}"
            if kw.arg == "context_window" and isinstance(kw.value, ast.Constant):
                assert kw.value.value == settings.backend.max_model_len, f"{where}: context_window"
    for d in (n for n in ast.walk(tree) if isinstance(n, ast.Dict)):  # a LiteLLM cost map
        for key, value in zip(d.keys, d.values, strict=True):
            if isinstance(key, ast.Constant) and isinstance(value, ast.Dict) and key.value in public | {"x"}:
                fields = {k.value: v for k, v in zip(value.keys, value.values, strict=True)
                          if isinstance(k, ast.Constant)}
                for limit in ("max_tokens", "max_input_tokens"):
                    if limit in fields:
                        assert ast.literal_eval(fields[limit]) == settings.backend.max_model_len, (where, key.value)


@pytest.mark.parametrize("block", _all_blocks("toml"), ids=lambda b: f"{b.page}#{b.index}")
def test_every_toml_example_loads(block: Block, tmp_path: Path) -> None:
    check_toml(block.text, tmp_path)


@pytest.mark.parametrize("block", _all_blocks("python"), ids=lambda b: f"{b.page}#{b.index}")
def test_every_python_example_compiles_and_names_served_models(block: Block) -> None:
    check_python(block, f"{block.page}#{block.index}")


_COMMANDS = [(b.page, argv) for b in _all_blocks("bash") for argv in command_lines(b.text)]


@pytest.mark.parametrize(("page", "argv"), _COMMANDS, ids=lambda v: v if isinstance(v, str) else shlex.join(v))
def test_every_command_line_parses(page: str, argv: list[str]) -> None:
    check_command(argv)


_INLINE_SPANS = sorted({(p.name, m.group(1)) for p in [*PAGES, README] for m in _INLINE.finditer(p.read_text())})


@pytest.mark.parametrize(("page", "span"), _INLINE_SPANS, ids=lambda v: v)
def test_every_mentioned_command_and_option_exists(page: str, span: str) -> None:
    check_inline(span)


_ENV_NAMES = sorted({(m.group(0).split("=")[0], m.group(1)) for p in [*PAGES, README]
                     for m in _ENV.finditer(p.read_text())}, key=str)


@pytest.mark.parametrize(("name", "value"), _ENV_NAMES, ids=lambda v: str(v))
def test_every_environment_variable_is_real(name: str, value: str | None) -> None:
    check_env(name, value)


def test_metric_names_in_the_docs_are_exposed() -> None:
    text = (DOCS / "metrics.md").read_text()
    documented = set(re.findall(r"\b(?:thrifty_[a-z_]*[a-z]|vllm:[a-z_]*[a-z])\b", text))
    missing = documented - real_metric_names()
    assert not missing, f"docs/metrics.md names metrics nobody exposes: {sorted(missing)}"


def test_every_exposed_metric_is_documented() -> None:
    text = (DOCS / "metrics.md").read_text()
    families = {re.sub(r"_(total|bucket|count|sum|created)$", "", n) for n in real_metric_names()}
    undocumented = {f for f in families if not re.search(rf"{re.escape(f)}(_total|_bucket)?(?![\w:])", text)}
    assert not undocumented, f"docs/metrics.md does not list {sorted(undocumented)}"


def test_readme_is_short() -> None:
    lines = README.read_text().splitlines()
    assert len(lines) <= 150, f"README.md has {len(lines)} lines"


@pytest.mark.parametrize("page", [README, *PAGES], ids=lambda p: p.name)
def test_every_relative_link_resolves(page: Path) -> None:
    for target in _LINK.findall(page.read_text()):
        if "://" in target:
            continue
        assert (page.parent / target).exists(), f"{page.name} links to {target}, which does not exist"


def test_readme_links_every_docs_page() -> None:
    linked = {(ROOT / t).resolve() for t in _LINK.findall(README.read_text()) if "://" not in t}
    unlinked = [p.name for p in PAGES if p.resolve() not in linked]
    assert not unlinked, f"README.md does not link {unlinked}"


@pytest.mark.parametrize("page", [README, *PAGES], ids=lambda p: p.name)
def test_every_source_file_named_exists(page: Path) -> None:
    missing = [path for path in _REPO_PATH.findall(page.read_text()) if not (ROOT / path).exists()]
    assert not missing, f"{page.name} names files that do not exist: {missing}"


def test_engine_flags_page_lists_every_backend_serve_option() -> None:
    text = (DOCS / "engine-flags.md").read_text()
    parser, _ = _resolve(["backend", "serve"])
    parser = _backend_parser(argparse.Namespace(func=parser._defaults["func"]))
    options = {o for a in parser._actions for o in a.option_strings if o.startswith("--") and o != "--help"}
    missing = sorted(o for o in options if not re.search(rf"`{re.escape(o)}(?![\w-])", text))
    assert not missing, f"docs/engine-flags.md does not list {missing}"


def test_benchmarks_page_lists_every_bench_and_eval_command() -> None:
    text = (DOCS / "benchmarks.md").read_text()
    missing = []
    for group in ("bench", "eval"):
        parser, _ = _resolve([group])
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        missing += [f"thrifty {group} {name}" for name in sub.choices
                    if not re.search(rf"`thrifty {group} {re.escape(name)}(?![\w-])", text)]
    assert not missing, f"docs/benchmarks.md does not list {missing}"
