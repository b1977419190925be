"""``thrifty bench structured``: what grammar-constrained decoding costs and how many schemas it covers.

Three parts, on the real model in the paged engine (``--weights-dtype`` as ``thrifty backend serve``):

- **mask cost**: ``--batch`` sizes (default 1 and 32) of constrained requests (a JSON array of records
  that cannot end before ``--max-tokens``, so every request decodes exactly that many tokens) against the
  same number of unconstrained ones (``ignore_eos``, the same token count). Per decode step: the time
  llguidance takes to fill the batch's masks (on its worker thread, overlapped with the forward), the
  time to apply them to the logits (on the step's critical path), and the step itself with and without
  constraints. The shares divide by the unconstrained step at the same batch size.
- **throughput**: generated tokens per second of the same two runs (same run, same prompts).
- **speculation**: constrained requests that end on their own (a list of three records, and a forced tool
  call's arguments), greedy, decoded with the server's default n-gram speculation and without it,
  alternately: tokens per second, tokens per step, drafts accepted, and whether the tokens are identical.
- **coverage**: every ``*.json`` schema under ``--schemas`` (default: a built-in sample of 24 handwritten
  schemas in the style of JSONSchemaBench's easier subsets) is checked and compiled as a request's
  ``response_format`` would be; the first ``--generate`` compiled ones are decoded (greedy, ``--coverage-
  max-tokens``) and each finished output is validated with ``jsonschema``. Reported: compiled / total with
  the reasons for refusals, outputs that validate / finished outputs, and outputs cut by the token limit.

Run ``python -m benchmarks.engine.structured --help`` for the options.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

RECORD = {"type": "object", "properties": {"name": {"type": "string", "maxLength": 24}, "age": {"type": "integer"},
                                           "city": {"type": "string", "maxLength": 24}},
          "required": ["name", "age", "city"], "additionalProperties": False}
LONG = {"type": "array", "items": RECORD, "minItems": 40}  # never complete within the bench's budget

SAMPLE: list[dict[str, Any]] = [
    {"type": "object", "properties": {"name": {"type": "string"}, "age": {"type": "integer"}}, "required": ["name", "age"]},
    {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"], "additionalProperties": False},
    {"type": "array", "items": {"type": "integer"}, "minItems": 1, "maxItems": 5},
    {"type": "object", "properties": {"color": {"enum": ["red", "green", "blue"]}}, "required": ["color"]},
    {"type": "object", "properties": {"email": {"type": "string", "format": "email"}}, "required": ["email"]},
    {"type": "object", "properties": {"day": {"type": "string", "format": "date"}}, "required": ["day"]},
    {"type": "object", "properties": {"id": {"type": "string", "pattern": "^[A-Z]{3}-[0-9]{4}$"}}, "required": ["id"]},
    {"type": "object", "properties": {"score": {"type": "number", "minimum": 0, "maximum": 1}}, "required": ["score"]},
    {"type": "object", "properties": {"tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": True}}},
    {"type": "object", "properties": {"note": {"type": ["string", "null"]}}, "required": ["note"]},
    {"type": "object", "properties": {"point": {"type": "object", "properties": {"x": {"type": "number"},
                                                                              "y": {"type": "number"}},
                                                "required": ["x", "y"]}}, "required": ["point"]},
    {"type": "object", "properties": {"kind": {"const": "event"}, "at": {"type": "string", "format": "date-time"}},
     "required": ["kind", "at"]},
    {"type": "object", "oneOf": [{"properties": {"a": {"type": "integer"}}, "required": ["a"]},
                                 {"properties": {"b": {"type": "string"}}, "required": ["b"]}]},
    {"type": "object", "properties": {"items": {"type": "array", "items": {"$ref": "#/$defs/item"}}},
     "$defs": {"item": {"type": "object", "properties": {"sku": {"type": "string"}, "qty": {"type": "integer",
                                                                                           "minimum": 1}},
                        "required": ["sku", "qty"]}}, "required": ["items"]},
    {"type": "object", "properties": {"n": {"type": "integer", "multipleOf": 5}}, "required": ["n"]},
    {"type": "object", "properties": {"s": {"type": "string", "minLength": 3, "maxLength": 8}}, "required": ["s"]},
    {"type": "object", "additionalProperties": {"type": "integer"}, "minProperties": 1},
    {"type": "object", "patternProperties": {"^x-": {"type": "string"}}, "additionalProperties": False},
    {"type": "object", "properties": {"a": {"allOf": [{"type": "integer"}, {"minimum": 3}]}}, "required": ["a"]},
    {"type": "object", "properties": {"v": {"anyOf": [{"type": "integer"}, {"type": "string", "maxLength": 4}]}},
     "required": ["v"]},
    {"type": "object", "properties": {"uri": {"type": "string", "format": "uri"}}, "required": ["uri"]},
    {"type": "object", "properties": {"u": {"type": "string", "format": "uuid"}}, "required": ["u"]},
    {"type": "object", "properties": {"child": {"$ref": "#"}}},  # recursive: refused by the bundled backend
    {"type": "object", "properties": {"x": {"not": {"type": "string"}}}},  # 'not': unimplemented in llguidance
]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model", default=None, help="GGUF file or Hugging Face folder (default: bundled SmolLM2)")
    parser.add_argument("--weights-dtype", default="auto", help="as thrifty backend serve (default: auto)")
    parser.add_argument("--batch", default="1,32", help="batch sizes of the mask-cost runs (default: 1,32)")
    parser.add_argument("--max-tokens", type=int, default=48, help="tokens each mask-cost request decodes")
    parser.add_argument("--schemas", default=None, help="a folder of *.json schemas for coverage "
                                                         "(default: the built-in sample)")
    parser.add_argument("--limit", type=int, default=0, help="coverage: at most this many schemas (0: all)")
    parser.add_argument("--generate", type=int, default=24, help="coverage: decode the first N compiled schemas")
    parser.add_argument("--coverage-max-tokens", type=int, default=256)
    parser.add_argument("--generate-containing", default=None,
                        help="coverage: decode only compiled schemas whose JSON holds this text (e.g. oneOf)")
    parser.add_argument("--parts", default="mask,coverage",
                        help="mask, coverage and/or speculation, comma-separated (default: mask,coverage)")
    parser.add_argument("--repeats", type=int, default=2, help="speculation: runs per side, best kept")
    parser.add_argument("--json", action="store_true", help="print the results as one JSON object")


def _engine(loaded, max_num_seqs: int):
    from backend.engine import Engine, EngineConfig

    return Engine(loaded, EngineConfig(kv_cache_memory=256 * 2**20, max_model_len=2048, max_num_seqs=max_num_seqs,
                                       max_num_batched_tokens=2048))


def _prompts(loaded, n: int) -> list[list[int]]:
    tok = loaded.tokenizer
    return [tok.encode_chat([{"role": "user", "content": f"List people with their age and city, batch {i}."}])
            for i in range(n)]


def _timed_run(loaded, compiled, batch: int, max_tokens: int) -> dict[str, Any]:
    """One mask-cost run: ``batch`` requests, constrained by ``compiled`` or free (None)."""
    from backend.sampling import SamplingParams

    engine = _engine(loaded, batch)
    params = SamplingParams(max_tokens=max_tokens, temperature=0.0, ignore_eos=compiled is None, grammar=compiled)
    for i, ids in enumerate(_prompts(loaded, batch)):
        engine.add(f"r{i}", ids, params)
    fills: list[float] = []
    applies: list[float] = []
    if compiled is not None:
        engine.step()  # the first request builds the mask worker; instrument it
        masks = engine._masks
        fill, apply = masks._fill, masks.apply

        def timed_fill(*a, **k):
            t = time.perf_counter()
            fill(*a, **k)
            fills.append(time.perf_counter() - t)

        def timed_apply(*a, **k):
            t = time.perf_counter()
            apply(*a, **k)
            applies.append(time.perf_counter() - t)

        masks._fill, masks.apply = timed_fill, timed_apply
    else:
        engine.step()
    steps: list[float] = []
    start = time.perf_counter()
    tokens = 0
    while engine.has_unfinished():
        t = time.perf_counter()
        outs = engine.step()
        steps.append(time.perf_counter() - t)
        tokens += sum(1 for out in outs for e in out.events if e.token_id is not None)
    elapsed = time.perf_counter() - start
    decode = steps  # the prefill ran in the first, untimed step
    return {"step_ms": statistics.median(decode) * 1e3, "tokens_per_s": tokens / elapsed if elapsed else 0.0,
            "fill_ms": statistics.median(fills) * 1e3 if fills else 0.0,
            "apply_ms": statistics.median(applies) * 1e3 if applies else 0.0, "steps": len(decode)}


def mask_cost(loaded, compiler, batches: list[int], max_tokens: int) -> list[dict[str, Any]]:
    from backend.structured.spec import GrammarRequest, json_schema_grammar

    compiled = compiler.compile(GrammarRequest(json_schema_grammar(LONG), "json_schema", "bench"))
    _timed_run(loaded, compiled, 2, 4)  # warm-up: one-time kernel and thread-pool start-up costs
    _timed_run(loaded, None, 2, 4)
    rows = []
    for batch in batches:
        free = _timed_run(loaded, None, batch, max_tokens)
        constrained = _timed_run(loaded, compiled, batch, max_tokens)
        base = free["step_ms"]
        rows.append({"batch": batch, "free_step_ms": base, "constrained_step_ms": constrained["step_ms"],
                     "fill_ms": constrained["fill_ms"], "apply_ms": constrained["apply_ms"],
                     "mask_share": (constrained["fill_ms"] + constrained["apply_ms"]) / base if base else 0.0,
                     "critical_share": constrained["apply_ms"] / base if base else 0.0,
                     "step_overhead": constrained["step_ms"] / base - 1 if base else 0.0,
                     "free_tokens_per_s": free["tokens_per_s"], "constrained_tokens_per_s": constrained["tokens_per_s"]})
    return rows


CALL = {"type": "object", "properties": {
    "name": {"const": "schedule_meeting"},
    "arguments": {"type": "object", "properties": {"title": {"type": "string", "maxLength": 32},
                                                   "attendees": {"type": "array", "items": {"type": "string",
                                                                                             "maxLength": 16},
                                                                 "minItems": 2, "maxItems": 3},
                                                   "duration_minutes": {"type": "integer"}},
                  "required": ["title", "attendees", "duration_minutes"], "additionalProperties": False}},
    "required": ["name", "arguments"], "additionalProperties": False}
THREE = {"type": "array", "items": RECORD, "minItems": 3, "maxItems": 3}


def _drain(engine) -> tuple[dict[str, list[int]], dict[str, str], int]:
    """Step ``engine`` until its requests finish: each request's token ids, its finish reason, the steps."""
    tokens: dict[str, list[int]] = {rid: [] for rid in engine.request_ids()}
    finish: dict[str, str] = {}
    steps = 0
    while engine.has_unfinished():
        for out in engine.step():
            for e in out.events:
                if e.token_id is not None:
                    tokens.setdefault(out.request_id, []).append(e.token_id)
                if e.finish_reason:
                    finish[out.request_id] = e.finish_reason
        steps += 1
    return tokens, finish, steps


def _decode(loaded, requests, speculative, max_num_seqs: int) -> dict[str, Any]:
    """Decode ``requests`` (id, prompt, params) to the end; tokens, tokens/s, steps and draft counters."""
    from backend.engine import Engine, EngineConfig
    from backend.generation import RequestStats

    engine = Engine(loaded, EngineConfig(kv_cache_memory=256 * 2**20, max_model_len=2048,
                                         max_num_seqs=max_num_seqs, speculative=speculative))
    stats = {rid: RequestStats() for rid, _, _ in requests}
    for rid, ids, params in requests:
        engine.add(rid, ids, params, stats=stats[rid])
    start = time.perf_counter()
    tokens, _, steps = _drain(engine)
    elapsed = time.perf_counter() - start
    produced = sum(len(t) for t in tokens.values())
    return {"tokens": tokens, "tokens_per_s": produced / elapsed, "tokens_per_step": produced / steps,
            "drafted": sum(s.spec_draft_tokens for s in stats.values()),
            "accepted": sum(s.spec_accepted_tokens for s in stats.values())}


def speculation(loaded, compiler, batches: list[int], repeats: int = 2) -> list[dict[str, Any]]:
    """Constrained greedy decoding with the default n-gram speculation against without it, per batch size."""
    from backend.config import BackendConfig
    from backend.sampling import SamplingParams
    from backend.speculative.config import SpeculativeConfig
    from backend.structured.spec import GrammarRequest, json_schema_grammar

    defaults = BackendConfig()
    on = SpeculativeConfig(method="ngram", num_tokens=defaults.num_speculative_tokens,
                           max_step_rows=defaults.speculative_max_step_rows)
    off = SpeculativeConfig()
    grammars = {"records": compiler.compile(GrammarRequest(json_schema_grammar(THREE), "json_schema", "bench")),
                "call": compiler.compile(GrammarRequest(json_schema_grammar(CALL), "json_schema", "bench"))}
    tok = loaded.tokenizer
    questions = {"records": "List three people with their name, age and city as JSON, case {i}.",
                 "call": "Book a meeting about the quarterly budget with Ana and Raj, case {i}. Answer with the "
                         "schedule_meeting call as JSON."}
    rows = []
    for kind, grammar in grammars.items():
        params = SamplingParams(max_tokens=160, temperature=0.0, grammar=grammar)
        for batch in batches:
            requests = [(f"{kind}{i}", tok.encode_chat([{"role": "user", "content": questions[kind].format(i=i)}]),
                         params) for i in range(batch)]
            _decode(loaded, requests[:1], on, 1)  # warm-up
            runs: dict[str, list[dict[str, Any]]] = {"off": [], "on": []}
            for _ in range(repeats):
                for name, config in (("off", off), ("on", on)):
                    runs[name].append(_decode(loaded, requests, config, batch))
            best = {name: max(r, key=lambda x: x["tokens_per_s"]) for name, r in runs.items()}
            rows.append({"schema": kind, "batch": batch, "off_tokens_per_s": best["off"]["tokens_per_s"],
                         "on_tokens_per_s": best["on"]["tokens_per_s"],
                         "speedup": best["on"]["tokens_per_s"] / best["off"]["tokens_per_s"],
                         "tokens_per_step": best["on"]["tokens_per_step"], "drafted": best["on"]["drafted"],
                         "accepted": best["on"]["accepted"],
                         "identical": all(r["tokens"] == runs["off"][0]["tokens"] for r in runs["on"] + runs["off"])})
    return rows


def _load_schemas(folder: str | None, limit: int) -> list[tuple[str, Any]]:
    if folder is None:
        found = [(f"sample-{i:02d}", schema) for i, schema in enumerate(SAMPLE)]
    else:
        found = []
        for path in sorted(Path(folder).rglob("*.json")):
            try:
                found.append((path.name, json.loads(path.read_text(encoding="utf-8"))))
            except (OSError, ValueError):
                found.append((path.name, None))
    return found[:limit] if limit else found


def _reason(message: str) -> str:
    """A refusal's category (the part of the message before details)."""
    for marker in ("recursive", "points outside", "does not resolve", "not a valid JSON Schema", "limited to",
                   "Unimplemented keys", "Unknown format", "Unsatisfiable", "took longer", "must be a JSON Schema"):
        if marker in message:
            return marker
    return message.split(":", 2)[-1].strip()[:60]


def coverage(loaded, compiler, schemas: list[tuple[str, Any]], generate: int, max_tokens: int,
             containing: str | None = None) -> dict[str, Any]:
    """Compile every schema; decode the first ``generate`` compiled ones (only those whose JSON text holds
    ``containing``, when given) and validate each finished output against its original schema."""
    import jsonschema

    from backend.protocol import RequestError
    from backend.sampling import SamplingParams
    from backend.structured.spec import grammar_request

    compiled, refused = [], Counter()
    compile_ms = []
    for name, schema in schemas:
        fmt = {"type": "json_schema", "json_schema": {"name": "s", "schema": schema}}
        try:
            t = time.perf_counter()
            grammar = compiler.compile(grammar_request(response_format=fmt))
            compile_ms.append((time.perf_counter() - t) * 1e3)
            compiled.append((name, schema, grammar))
        except RequestError as exc:
            refused[_reason(exc.message)] += 1
    engine = _engine(loaded, 8)
    picked = [c for c in compiled if containing is None or containing in json.dumps(c[1])][:generate]
    tok = loaded.tokenizer
    for i, (_, schema, grammar) in enumerate(picked):
        ids = tok.encode_chat([{"role": "system", "content": "Answer with one JSON value matching this schema:\n"
                                + json.dumps(schema)[:2000]},
                               {"role": "user", "content": "Give a realistic example."}])
        engine.add(f"c{i}", ids, SamplingParams(max_tokens=max_tokens, temperature=0.0, grammar=grammar))
    texts, finish, _ = _drain(engine)
    valid = invalid = cut = 0
    failures = []
    for i, (name, schema, _) in enumerate(picked):
        rid = f"c{i}"
        if finish.get(rid) == "length":
            cut += 1
            continue
        try:
            jsonschema.validate(json.loads(tok.decode(texts[rid])), schema, format_checker=jsonschema.FormatChecker())
            valid += 1
        except (ValueError, jsonschema.ValidationError, jsonschema.SchemaError) as exc:
            invalid += 1
            failures.append(f"{name}: {str(exc).splitlines()[0][:120]}")
    return {"total": len(schemas), "compiled": len(compiled), "refused": dict(refused.most_common()),
            "compile_ms_median": statistics.median(compile_ms) if compile_ms else 0.0,
            "compile_ms_max": max(compile_ms) if compile_ms else 0.0,
            "generated": len(picked), "valid": valid, "invalid": invalid, "length": cut, "failures": failures}


def main(argv: list[str] | None = None) -> int:
    """``thrifty bench structured`` / ``python -m benchmarks.engine.structured``."""
    parser = argparse.ArgumentParser(prog="thrifty bench structured", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        batches = [int(b) for b in args.batch.split(",")]
    except ValueError:
        batches = []
    parts = set(args.parts.split(","))
    problem = ("--batch must be a comma-separated list of positive integers" if not batches or min(batches) < 1
               else "--parts: use mask, coverage and/or speculation"
               if not parts or parts - {"mask", "coverage", "speculation"}
               else "--repeats must be at least 1" if args.repeats < 1
               else "--max-tokens must be at least 2" if args.max_tokens < 2
               else f"--schemas {args.schemas!r} is not a folder" if args.schemas and not Path(args.schemas).is_dir()
               else None)
    if problem:
        print(f"thrifty bench structured: {problem}", file=sys.stderr)
        return 2
    from backend.config import BackendConfig
    from backend.runtime import load_model
    from backend.structured.compiler import GrammarCompiler

    loaded = load_model(BackendConfig(model_path=args.model, weights_dtype=args.weights_dtype))
    t = time.perf_counter()
    compiler = GrammarCompiler(loaded.tokenizer.hf_tokenizer, loaded.model.config.vocab_size)
    results: dict[str, Any] = {"tokenizer_setup_s": time.perf_counter() - t, "weights_dtype": loaded.weights_dtype}
    if "mask" in parts:
        results["mask"] = mask_cost(loaded, compiler, batches, args.max_tokens)
    if "speculation" in parts:
        results["speculation"] = speculation(loaded, compiler, batches, args.repeats)
    if "coverage" in parts:
        results["coverage"] = coverage(loaded, compiler, _load_schemas(args.schemas, args.limit), args.generate,
                                       args.coverage_max_tokens, args.generate_containing)
        results["coverage"]["source"] = args.schemas or "built-in sample (24 handwritten schemas)"
    if args.json:
        print(json.dumps(results, indent=1))
        return 0
    print(f"weights {results['weights_dtype']}; llguidance token table built in {results['tokenizer_setup_s']:.2f} s")
    for row in results.get("mask", []):
        print(f"batch {row['batch']:>3}: step free {row['free_step_ms']:.1f} ms, constrained "
              f"{row['constrained_step_ms']:.1f} ms ({row['step_overhead']:+.1%}); mask fill {row['fill_ms']:.3f} ms "
              f"(worker thread) + apply {row['apply_ms']:.3f} ms = {row['mask_share']:.1%} of a free step "
              f"({row['critical_share']:.1%} on the critical path); tokens/s free {row['free_tokens_per_s']:.1f}, "
              f"constrained {row['constrained_tokens_per_s']:.1f}")
    for row in results.get("speculation", []):
        print(f"{row['schema']:>8} batch {row['batch']:>3}: n-gram speculation {row['on_tokens_per_s']:.1f} tokens/s "
              f"against {row['off_tokens_per_s']:.1f} off ({row['speedup']:.2f}x); {row['tokens_per_step']:.2f} "
              f"tokens/step, {row['accepted']}/{row['drafted']} drafts accepted; identical tokens: {row['identical']}")
    cov = results.get("coverage")
    if cov:
        print(f"coverage ({cov['source']}): compiled {cov['compiled']}/{cov['total']} (compile median "
              f"{cov['compile_ms_median']:.1f} ms, max {cov['compile_ms_max']:.1f} ms); refused: {cov['refused']}")
        done = cov["valid"] + cov["invalid"]
        print(f"  decoded {cov['generated']}: {cov['valid']}/{done} finished outputs validate, "
              f"{cov['length']} cut by max_tokens")
        for failure in cov["failures"]:
            print(f"  invalid: {failure}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
