"""The shipped sets of the semantic-cache evaluation: the development set (hard negatives, paraphrase
controls, scope checks, contested questions, a long prompt), the opened generated sets and the
frozen held-out set, each through the real cache and embedder."""

from __future__ import annotations

import asyncio
import json
import sys
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from tqdm import tqdm

from benchmarks.caches.eval_common import (
    answer,
    answer_index,
    completion,
    keys,
    pct,
    rate,
    sqlite_engine,
    wilson_interval,
)
from caches.config import CacheConfig
from caches.embedder import Embedder
from caches.semantic import SemanticCache
from caches.semantic_stores import SemanticItem
from caches.service import ResponseCache
from caches.types import CacheHit


@dataclass(frozen=True, slots=True)
class HardNegativeReport:
    text_pairs: int
    false_hits: list[str]
    by_category: dict[str, int]
    positives: int
    positive_hits: int
    positive_misses: list[str]
    scope_results: list[tuple[str, bool, bool]]  # (category, expected hit, got hit)
    long_prompt_similarity: float
    long_prompt_hit: bool
    contested_cases: int = 0
    contested_false_hits: int = 0
    contested_control_hits: int = 0  # after a model-version change the new answer is served again


DEV_SET = "dev_hard_negatives.json"
# the generated sets in the order they were written (make_heldout.py, make_heldout_v3.py ... _v38.py), each by
# someone who never read the rules (from the fourth on, each by a helper who read neither the rules nor the
# other sets), frozen in a commit of its own and held out until its first measurement; opened after it
# (development data). BENCHMARKS.md, "Semantic cache" 2f, gives each one's first measurement.
GENERATED_SETS = tuple(f"heldout_generated{suffix}.json" for suffix in ("", "_v2", "_v3", "_v4", "_v5", "_v6", "_v7", "_v8", "_v9", "_v10",
                                                                          "_v11", "_v12", "_v13", "_v14", "_v15", "_v16", "_v17", "_v18",
                                                                          "_v19", "_v20", "_v21", "_v22", "_v23", "_v24", "_v25", "_v26", "_v27", "_v28",
                                                                          "_v29", "_v30", "_v31", "_v32", "_v33",
                                                                          "_v34", "_v35", "_v36", "_v37", "_v38"))
# the set reported as held out by default (the tests' reference; see BENCHMARKS.md for how often it was measured)
HELDOUT_SET = "heldout_generated_v3.json"
# measured once and never opened: its cases are never printed (``--show-heldout-cases`` aside)
UNOPENED_SETS = ("heldout_generated_v9.json", "heldout_generated_v10.json", "heldout_generated_v12.json",
                 "heldout_generated_v13.json", "heldout_generated_v14.json", "heldout_generated_v16.json",
                 "heldout_generated_v18.json", "heldout_generated_v21.json", "heldout_generated_v25.json",
                 "heldout_generated_v38.json")
# unopened sets whose must-not-hit pairs still meet false hits, with the count the cache is held to (BENCHMARKS.md,
# "Semantic cache" 2j-2n): a bound against regressions, not the target (zero)
UNOPENED_FALSE_HITS = {"heldout_generated_v14.json": 2, "heldout_generated_v21.json": 4, "heldout_generated_v25.json": 1,
                       "heldout_generated_v38.json": 1}
# opened sets with must-not-hit pairs that verification passes (the similarity threshold refuses them: no false hit
# in the evaluation), with the count held: v24's *how should we split the bills* / *what's a fair way to divide the
# rent* after the same context. A rule that refused it cost three paraphrases of the unopened sets (BENCHMARKS.md,
# "Semantic cache" 2m).
# v27's three requests for another task on the same script or traceback (*explain what this script does* / *add a
# comment to each line of this script*), read as rewordings: the cache refuses them by their differing parts
# (caches.reworded_parts, tested through the cache in tests/caches/test_semantic.py).
# v31's three other tasks on the same Dockerfile (*convert it to a multi-stage build* / *make its image smaller*), as
# v27's. v33's *the average quantity per status* / *the average total per status* from the same table: WordNet reads
# *quantity* and *total* as one sense, and the cache serves it (one false hit of 240, BENCHMARKS.md 2o: not fixed).
# v37's *rewrite this email so it sounds defensive* / *... apologetic* around the same email: WordNet lists *defensive*
# as similar to *apologetic*, and the cache serves it (one false hit of 352, found blind, BENCHMARKS.md 2p: not fixed).
OPENED_VERIFY_PASSES = {"heldout_generated_v24.json": 1, "heldout_generated_v27.json": 3, "heldout_generated_v31.json": 3,
                        "heldout_generated_v33.json": 1, "heldout_generated_v37.json": 1}
OPENED_SETS = tuple(name for name in GENERATED_SETS if name != HELDOUT_SET and name not in UNOPENED_SETS)
HELDOUT_SETS = GENERATED_SETS  # what ``--heldout-set`` may name
HELDOUT_TARGET_HIT_RATE = 0.70


def load_hard_negatives(name: str = DEV_SET) -> dict[str, Any]:
    """A shipped set: :data:`DEV_SET` (development) or :data:`HELDOUT_SET` (never used to write rules)."""
    return json.loads(resources.files("benchmarks.caches").joinpath("data", name).read_text("utf-8"))




LOOKUPS_IN_FLIGHT = 64  # lookups the evaluation runs at once: the cache's batcher embeds them in shared forwards


async def _lookups(cache: SemanticCache, queries: list[tuple[str, str]], desc: str) -> list[CacheHit | None]:
    """``cache.get`` of each ``(query, scope)``, in order, :data:`LOOKUPS_IN_FLIGHT` at a time (no request
    arrival time, so no deadline: every lookup waits for its vector, micro-batched as under load)."""
    gate = asyncio.Semaphore(LOOKUPS_IN_FLIGHT)
    progress = tqdm(total=len(queries), desc=desc, file=sys.stderr)

    async def one(query: str, scope: str) -> CacheHit | None:
        async with gate:
            hit = await cache.get(keys(query, scope), model_version="v1")
        progress.update()
        return hit

    try:
        return list(await asyncio.gather(*(one(q, s) for q, s in queries)))
    finally:
        progress.close()


async def _false_hits(cache: SemanticCache, pairs: list[dict[str, Any]], scope: str) -> list[tuple[int, str]]:
    """Store each pair's ``stored`` text in a scope of its own and query its ``query``: the hits
    (all false), as ``(pair index, description)``. One scope per pair, so that a query never meets
    another pair's identical text."""
    await cache.put_many([SemanticItem(keys(p["stored"], f"{scope}-{i}"), answer(i), "v1") for i, p in enumerate(pairs)])
    got = await _lookups(cache, [(p["query"], f"{scope}-{i}") for i, p in enumerate(pairs)], f"hard negatives ({scope})")
    return [(i, f"{p['query']!r} -> {hit.matched_query!r} ({hit.similarity:.3f})")
            for i, (p, hit) in enumerate(zip(pairs, got, strict=True)) if hit is not None]


async def _positive_hits(cache: SemanticCache, positives: list[dict[str, Any]], scope: str) -> tuple[int, list[str]]:
    """Store each control's ``stored`` text in a scope of its own; ``(right hits, queries that missed)``."""
    await cache.put_many([SemanticItem(keys(p["stored"], f"{scope}-{i}"), answer(i), "v1") for i, p in enumerate(positives)])
    got = await _lookups(cache, [(p["query"], f"{scope}-{i}") for i, p in enumerate(positives)], f"paraphrases ({scope})")
    right = [hit is not None and answer_index(hit.body) == i for i, hit in enumerate(got)]
    return sum(right), [p["query"] for p, ok in zip(positives, right, strict=True) if not ok]


@dataclass(frozen=True, slots=True)
class HeldoutReport:
    """The held-out set: the rendered table, its false hits and its paraphrase hit rate."""

    table: str
    false_hits: int
    pairs: int
    hit_rate: float




async def heldout_negatives(embedder: Embedder, config: CacheConfig, tmp: Path, *, show_cases: bool = False,
                            name: str = HELDOUT_SET) -> HeldoutReport:
    """A generated set (default: the held-out one): false hits per category and the paraphrases'
    hit rate, with Wilson 95% intervals. Cases are printed only with ``show_cases``."""
    data = load_hard_negatives(name)
    # a database of its own per set: sets share their scope names, and a text one set stores must never answer
    # another set's query (two helpers may write the same prompt)
    engine = await sqlite_engine(tmp, f"held-out-{Path(name).stem}")
    cache = SemanticCache(engine, embedder, config.semantic)
    try:
        pairs = data["text_pairs"]
        false = await _false_hits(cache, pairs, "held-out")
        hits, misses = await _positive_hits(cache, data["positives"], "held-out-pos")
    finally:
        await cache.aclose()
        await engine.dispose()
    n_pos = len(data["positives"])
    cats: dict[str, list[int]] = {}
    for p in pairs:
        cats.setdefault(p["category"], [0, 0])[0] += 1
    for i, _ in false:
        cats[pairs[i]["category"]][1] += 1
    lines = [f"| {name} | cases | false hits / hits | rate (Wilson 95% interval) |",
             "|---|---|---|---|",
             f"| must-not-hit pairs | {len(pairs)} | {len(false)} false | {rate(len(false), len(pairs))} false-hit rate |",
             f"| paraphrases | {n_pos} | {hits} hits | {rate(hits, n_pos)} hit rate |",
             "", "False hits by category: " + ", ".join(f"{k} {v[1]}/{v[0]}" for k, v in cats.items()) + "."]
    if show_cases:
        lines += [f"- false hit: {x}" for _, x in false] + [f"- paraphrase missed: {x}" for x in misses]
    return HeldoutReport("\n".join(lines), len(false), len(pairs), hits / n_pos if n_pos else 0.0)


async def hard_negatives(embedder: Embedder, config: CacheConfig, tmp: Path) -> HardNegativeReport:
    data = load_hard_negatives()
    engine = await sqlite_engine(tmp, "hard-negatives")
    cache = SemanticCache(engine, embedder, config.semantic)
    try:
        pairs = data["text_pairs"]
        false_hits = [text for _, text in await _false_hits(cache, pairs, "neg")]
        by_category: dict[str, int] = {}
        for p in pairs:
            by_category[p["category"]] = by_category.get(p["category"], 0) + 1
        positives = data["positives"]
        pos_hits, pos_misses = await _positive_hits(cache, positives, "pos")
        # long prompts: the embedder truncates, so near-identical long prompts embed alike
        prefix = " ".join(
            f"Line {i}: the quarterly report lists revenue, costs and staff numbers." for i in range(40)
        )
        long_a = prefix + " Question: did revenue go up?"
        long_b = prefix + " Question: did revenue go down?"
        va, vb = embedder.embed([long_a, long_b])
        long_sim = float(va @ vb)
        await cache.put(keys(long_a, "long"), answer(0), model_version="v1")
        long_hit = await cache.get(keys(long_b, "long"), model_version="v1") is not None
        contested = data.get("contested_cases", [])
        contested_false = contested_controls = 0
        for n, case in enumerate(contested):
            scope = f"contested-{n}"
            for reply in case["answers"]:
                await cache.put(keys(case["stored"], scope), completion(reply), model_version="v1")
            for text in (case["query"], case["stored"]):
                contested_false += await cache.get(keys(text, scope), model_version="v1") is not None
            await cache.put(keys(case["stored"], scope), completion(case["answers"][0]), model_version="v2")
            contested_controls += (
                await cache.get(keys(case["stored"], scope), model_version="v2") is not None
            )
    finally:
        await cache.aclose()
        await engine.dispose()

    scope_results: list[tuple[str, bool, bool]] = []
    for n, case in enumerate(tqdm(data["scope_cases"], desc="scope checks", file=sys.stderr)):
        engine = await sqlite_engine(tmp, f"scope-{n}")
        rc = ResponseCache(engine, config, embedder=embedder)
        try:
            s, q = case["stored"], case["query"]
            stored_req = rc.prepare(s["body"], model=s["model"], tenant=s["tenant"])
            await rc.store(stored_req, answer(1), model_version="v1")
            query_req = rc.prepare(q["body"], model=q["model"], tenant=q["tenant"])
            hit = await rc.lookup(query_req, model_version="v1")
            scope_results.append((case["category"], bool(case["expect_hit"]), hit is not None))
        finally:
            await rc.aclose()
            await engine.dispose()
    return HardNegativeReport(
        text_pairs=len(pairs),
        false_hits=false_hits,
        by_category=by_category,
        positives=len(positives),
        positive_hits=pos_hits,
        positive_misses=pos_misses,
        scope_results=scope_results,
        long_prompt_similarity=long_sim,
        long_prompt_hit=long_hit,
        contested_cases=len(contested),
        contested_false_hits=contested_false,
        contested_control_hits=contested_controls,
    )


def render_hard_negatives(r: HardNegativeReport) -> str:
    lines = [
        "| check | cases | false hits |",
        "|---|---|---|",
        f"| hard-negative text pairs ({', '.join(f'{k} {v}' for k, v in r.by_category.items())}) | {r.text_pairs} | {len(r.false_hits)} |",
    ]
    scope_neg = [x for x in r.scope_results if not x[1]]
    cats: dict[str, list[bool]] = {}
    for cat, _, got in scope_neg:
        cats.setdefault(cat, []).append(got)
    for cat, gots in cats.items():
        lines.append(f"| scope: {cat.replace('_', ' ')} | {len(gots)} | {sum(gots)} |")
    lines.append(
        f"| long prompt, different ending (cosine {r.long_prompt_similarity:.3f}; over max_query_chars) | 1 | {int(r.long_prompt_hit)} |"
    )
    lines.append(
        f"| contested question (stored twice with different answers; paraphrase and the question itself) | "
        f"{2 * r.contested_cases} | {r.contested_false_hits} |"
    )
    total_false = (
        len(r.false_hits)
        + sum(got for _, exp, got in r.scope_results if not exp)
        + int(r.long_prompt_hit)
        + r.contested_false_hits
    )
    controls = [x for x in r.scope_results if x[1]]
    out = "\n".join(lines)
    out += f"\n\n**Total false hits: {total_false}.**"
    out += (
        f"\n\nControls (should hit): paraphrase pairs {r.positive_hits}/{r.positives}; "
        + ", ".join(f"{cat.replace('_', ' ')}: {'hit' if got else 'MISS'}" for cat, _, got in controls)
        + f"; contested question re-answered under a new model version: "
        f"{r.contested_control_hits}/{r.contested_cases} served again."
    )
    if r.false_hits:
        out += "\n\nFalse hits:\n" + "\n".join(f"- {x}" for x in r.false_hits)
    if r.positive_misses:
        out += "\n\nControl paraphrases that missed (a miss only costs an upstream call):\n" + "\n".join(
            f"- {x}" for x in r.positive_misses
        )
    return out



async def sets_section(embedder: Embedder, config: CacheConfig, tmp: Path, *, heldout_set: str = HELDOUT_SET,
                       show_heldout_cases: bool = False) -> tuple[bool, list[str]]:
    """Sections 2 and 3, printed: the development set with the scope checks and the opened sets, then the
    held-out set, reported apart. Returns whether every target was met and the summary lines."""
    print("## 2. Development set and scope checks\n")
    hn = await hard_negatives(embedder, config, tmp)
    print(render_hard_negatives(hn))
    print()
    development_false = (len(hn.false_hits) + int(hn.long_prompt_hit) + hn.contested_false_hits
                         + sum(1 for _, exp, got in hn.scope_results if not exp and got))
    opened_reports = []
    for name in OPENED_SETS:
        print(f"### Opened generated set {name} (held out until measured, then opened: development data now)\n")
        opened = await heldout_negatives(embedder, config, tmp, show_cases=True, name=name)
        print(opened.table)
        print()
        development_false += opened.false_hits
        opened_reports.append(f"{name}: {opened.false_hits}/{opened.pairs} false hits, paraphrases {pct(opened.hit_rate)}")
    print("## 3. Held-out set (generated from templates, frozen before the rules; never used to write them)\n")
    heldout = await heldout_negatives(embedder, config, tmp, show_cases=show_heldout_cases, name=heldout_set)
    print(heldout.table)
    print()
    zero_dev = development_false == 0
    zero_heldout = heldout.false_hits == 0
    hits_ok = heldout.hit_rate >= HELDOUT_TARGET_HIT_RATE
    lo, hi = wilson_interval(heldout.false_hits, heldout.pairs)
    return zero_dev and zero_heldout and hits_ok, [
        f"- development set and scope checks: {development_false} false hits "
        f"({'met' if zero_dev else 'NOT met'}: zero); paraphrase controls {hn.positive_hits}/{hn.positives}; "
        f"opened generated sets: {'; '.join(opened_reports)}",
        f"- held-out set: {heldout.false_hits} false hits of {heldout.pairs} (false-hit rate 95% interval "
        f"{pct(lo)}-{pct(hi)}; {'met' if zero_heldout else 'NOT met'}: zero); paraphrase hit rate "
        f"{pct(heldout.hit_rate)} ({'met' if hits_ok else 'NOT met'}: >= {HELDOUT_TARGET_HIT_RATE:.0%})",
    ]

