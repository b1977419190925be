"""Compiling grammars against the model's tokenizer: bounded in time, cached by grammar text.

llguidance compiles a grammar when a matcher is built (a few milliseconds for typical schemas on a
laptop CPU, see BENCHMARKS.md). :class:`GrammarCompiler` does it on its own worker threads (llguidance
drops the GIL), waits at most ``timeout_s`` (a schema that takes longer is refused with a 400, never
queued behind), caps the work with llguidance's parser limits, and keeps the last ``cache_size``
compiled grammars (LRU) so a repeated schema costs one deep copy of a ready matcher.
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from backend.protocol import RequestError
from backend.structured.spec import TOOL_CALL_OPEN, GrammarRequest


@dataclass(frozen=True, slots=True)
class CompiledGrammar:
    """A compiled grammar: ``matcher()`` gives each constrained sequence its own matcher at the start."""

    request: GrammarRequest
    template: Any  # llguidance.LLMatcher in its initial state; never advanced

    def matcher(self) -> Any:
        """A fresh ``llguidance.LLMatcher`` for one sequence (a copy of the compiled template)."""
        return self.template.deep_copy()


@dataclass(frozen=True, slots=True)
class CallGrammars:
    """``tool_choice`` auto: the grammars that take over once the model opens a ``<tool_call>`` block.

    ``after_open`` continues right after ``<tool_call>``, ``after_newline`` after ``<tool_call>`` and a newline
    (:func:`backend.structured.spec.auto_call_grammars`)."""

    after_open: CompiledGrammar
    after_newline: CompiledGrammar

    def matcher_for(self, text: str) -> Any:
        """A matcher for the rest of the block if ``text`` (the choice's text so far) has just opened one."""
        if text.endswith(TOOL_CALL_OPEN):
            return self.after_open.matcher()
        if text.endswith(TOOL_CALL_OPEN + "\n"):
            return self.after_newline.matcher()
        return None


class GrammarCompiler:
    """Turns :class:`GrammarRequest` values into :class:`CompiledGrammar` for one tokenizer."""

    def __init__(self, hf_tokenizer: Any, vocab_size: int, *, cache_size: int = 256, timeout_s: float = 10.0,
                 workers: int = 2) -> None:
        """``hf_tokenizer``: the model's fast transformers tokenizer; ``vocab_size``: the logits' width
        (masks cover exactly that many token ids)."""
        import llguidance
        import llguidance.hf

        self.vocab_size = vocab_size
        self.timeout_s = timeout_s
        self._tokenizer = llguidance.hf.from_tokenizer(hf_tokenizer, n_vocab=vocab_size)
        self._limits = llguidance.LLParserLimits(verbose_errors=False)
        self._cache: OrderedDict[str, CompiledGrammar] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="grammar-compile")
        self.compiled = 0  # cache misses compiled so far
        self.hits = 0

    def cached(self, request: GrammarRequest) -> CompiledGrammar | None:
        """The compiled grammar of ``request`` if it is in the cache (marked most recently used)."""
        with self._lock:
            found = self._cache.get(request.grammar)
            if found is not None:
                self._cache.move_to_end(request.grammar)
                self.hits += 1
            return found

    def _build(self, request: GrammarRequest) -> CompiledGrammar:
        import llguidance

        matcher = llguidance.LLMatcher(self._tokenizer, request.grammar, log_level=0, limits=self._limits)
        if matcher.is_error():
            raise RequestError(f"{request.param}: {_first_line(matcher.get_error())}", param=request.param)
        compiled = CompiledGrammar(request, matcher)
        with self._lock:
            self.compiled += 1
            self._cache[request.grammar] = compiled
            self._cache.move_to_end(request.grammar)
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
        return compiled

    def compile(self, request: GrammarRequest, timeout_s: float | None = None) -> CompiledGrammar:
        """Compile (or fetch) ``request``'s grammar, waiting at most ``timeout_s`` (default: the compiler's)."""
        found = self.cached(request)
        if found is not None:
            return found
        future = self._pool.submit(self._build, request)
        limit = self.timeout_s if timeout_s is None else timeout_s
        try:
            return future.result(timeout=limit)
        except TimeoutError:
            raise _too_slow(request, limit) from None

    async def compile_async(self, request: GrammarRequest, timeout_s: float | None = None) -> CompiledGrammar:
        """:meth:`compile` for the event loop: the wait never blocks it."""
        found = self.cached(request)
        if found is not None:
            return found
        limit = self.timeout_s if timeout_s is None else timeout_s
        future = asyncio.wrap_future(self._pool.submit(self._build, request))
        try:
            return await asyncio.wait_for(asyncio.shield(future), timeout=limit)
        except TimeoutError:
            raise _too_slow(request, limit) from None

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


def _too_slow(request: GrammarRequest, limit: float) -> RequestError:
    return RequestError(f"{request.param}: compiling its grammar took longer than {limit:g} s; simplify it",
                        param=request.param, code="grammar_compile_timeout")


def _first_line(message: str) -> str:
    """llguidance's error without its state dump."""
    return message.split("\n<state>", 1)[0].strip()
