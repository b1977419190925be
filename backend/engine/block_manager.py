"""Paged KV blocks: allocation, reference counts, and the chained-hash prefix cache.

Every block is in exactly one of three states:

* **free** — no owner, no cached content; in the free list (a stack: the last freed is taken first).
* **used** — ``ref_count > 0``: in the block table of at least one running sequence.
* **cached** — ``ref_count == 0`` but holding a registered full block of tokens; kept in an LRU of
  evictable blocks (an ``OrderedDict``: O(1) touch, insert and evict) until a new allocation needs it.

A *full* block (``block_size`` tokens whose K/V are computed) is identified by a chained hash
``hash_fn(parent_hash, token_ids, extra_key)``, so equal hashes mean equal prefixes with overwhelming
probability; hits are nevertheless verified exactly: the candidate block's token ids and extra key
must equal the request's, and its recorded parent must be the very block (and allocation generation)
matched one level up. A hash collision is therefore a miss, never wrong K/V.

**Partial matches** (token-granular reuse, ``partial_block_reuse``): after the longest run of matched
full blocks, :meth:`BlockManager.match_partial` looks among the registered blocks whose recorded parent
is the last matched block (the root, None, when none matched) and whose extra key is the request's, for
the one whose tokens share the longest common prefix ``m`` (``1 <= m < block_size``) with the request's
next tokens. An index keyed by (parent, first token, extra key) keeps the lookup to a few candidates
(at most :data:`PARTIAL_SCAN_LIMIT` are compared, newest first). A partial match is never shared: the
sequence gets a fresh block, the runner copies the whole source block's K/V into it before the step's
forward (the slots past ``m`` are stale but are overwritten by the prefill of the tokens at those
positions, and attention never reads past the context length), and the sequence starts with
``num_computed = full blocks × block_size + m``. Between the scheduling decision and the copy the source
block is *held* (a reference without a block-table entry, :meth:`BlockManager.release_source` drops it),
so no allocation can evict or reuse it; once the copied block is full it is registered as usual (as a
duplicate of the source when its remaining tokens are the source's).
"""

from __future__ import annotations

from collections import OrderedDict, deque
from collections.abc import Callable
from collections.abc import Sequence as Seq
from dataclasses import dataclass
from typing import Any

from backend.engine.sequence import Sequence

HashFn = Callable[[int | None, tuple[int, ...], Any], int]
BlockRef = tuple[int, int]  # (block_id, generation)
ChildKey = tuple[BlockRef | None, int, Any]  # (parent, first token id, extra key) of a registered block

PARTIAL_SCAN_LIMIT = 32  # candidate blocks compared token by token per partial lookup


def _common_prefix(a: Seq[int], b: Seq[int]) -> int:
    """Length of the longest common prefix of two token runs."""
    n = min(len(a), len(b))
    for i in range(n):
        if a[i] != b[i]:
            return i
    return n


def chained_hash(parent: int | None, token_ids: tuple[int, ...], extra_key: Any) -> int:
    """Hash of a full block given its parent block's hash (None for the first block)."""
    return hash((parent, token_ids, extra_key))


class NoFreeBlocksError(RuntimeError):
    """The pool has no free or evictable block left."""


class BlockError(RuntimeError):
    """A bookkeeping violation (double free, releasing an unowned block)."""


@dataclass(frozen=True, slots=True)
class PartialMatch:
    """The first ``num_tokens`` tokens of registered block ``block_id`` are the request's next tokens.

    ``block_id`` is the copy source: its K/V are copied into a fresh block of the sequence."""

    block_id: int
    num_tokens: int


@dataclass(slots=True, eq=False)
class Block:
    """One KV block's bookkeeping; the K/V tensors live in the model runner's pool."""

    block_id: int
    ref_count: int = 0
    generation: int = 0  # bumped on every (re)allocation: older references to this block go stale
    hash: int | None = None  # chained hash once the block holds a full, registered run of tokens
    token_ids: tuple[int, ...] | None = None
    extra_key: Any = None
    parent: BlockRef | None = None  # the canonical block before this one in its sequence
    registered: bool = False  # this block is the prefix-cache entry for ``hash``
    canonical: BlockRef | None = None  # an unregistered duplicate: the registered block with equal content

    @property
    def ref(self) -> BlockRef:
        return (self.block_id, self.generation)

    @property
    def child_key(self) -> ChildKey:
        """Where the partial-match index files this block (meaningful once it holds tokens)."""
        assert self.token_ids is not None
        return (self.parent, self.token_ids[0], self.extra_key)

    def reset(self) -> None:
        self.hash = None
        self.token_ids = None
        self.extra_key = None
        self.parent = None
        self.registered = False
        self.canonical = None


class BlockManager:
    """Owns the pool's block bookkeeping and every sequence's block table.

    ``enable_prefix_caching``: reuse the K/V of earlier prompts' full blocks. ``partial_block_reuse``
    (only with prefix caching): also reuse a token-granular prefix of one more cached block, copied into a
    fresh block (see the module docstring); off, a hit is a whole number of blocks.
    """

    def __init__(self, num_blocks: int, block_size: int, enable_prefix_caching: bool = True,
                 hash_fn: HashFn = chained_hash, partial_block_reuse: bool = True) -> None:
        if num_blocks < 1 or block_size < 1:
            raise ValueError("num_blocks and block_size must be positive")
        self.num_blocks = num_blocks
        self.block_size = block_size
        self.enable_prefix_caching = enable_prefix_caching
        self.partial_block_reuse = partial_block_reuse
        self.hash_fn = hash_fn
        self.blocks = [Block(i) for i in range(num_blocks)]
        self._free: deque[int] = deque(range(num_blocks))
        self._evictable: OrderedDict[int, None] = OrderedDict()  # LRU: oldest first
        self._cached: dict[int, int] = {}  # chained hash → registered block id
        # partial-match index: (parent, first token, extra key) → registered block ids, oldest first
        self._children: dict[ChildKey, dict[int, None]] = {}
        self._held: dict[int, int] = {}  # copy source block id → references held for pending copies
        self._used = 0
        self.prefix_queries = 0  # prompt tokens looked up at admission
        self.prefix_hits = 0  # of which served from the cache
        self.evictions = 0

    # ------------------------------------------------------------------ counts

    @property
    def num_free_blocks(self) -> int:
        return len(self._free)

    @property
    def num_cached_blocks(self) -> int:
        """Evictable blocks: unreferenced, holding reusable prefix K/V."""
        return len(self._evictable)

    @property
    def num_used_blocks(self) -> int:
        return self._used

    @property
    def num_available_blocks(self) -> int:
        """Blocks an allocation can take (free plus evictable)."""
        return len(self._free) + len(self._evictable)

    @property
    def num_held_sources(self) -> int:
        """References held on copy sources of partial matches whose copy has not run yet."""
        return sum(self._held.values())

    @property
    def hit_rate(self) -> float:
        return self.prefix_hits / self.prefix_queries if self.prefix_queries else 0.0

    def blocks_for(self, num_tokens: int) -> int:
        """Blocks that hold ``num_tokens`` tokens."""
        return -(-num_tokens // self.block_size)

    # ------------------------------------------------------------------ low level

    def _take(self) -> Block:
        if self._free:
            block = self.blocks[self._free.popleft()]
        elif self._evictable:
            block_id, _ = self._evictable.popitem(last=False)
            block = self.blocks[block_id]
            self._uncache(block)
            self.evictions += 1
        else:
            raise NoFreeBlocksError("no free KV block")
        block.reset()
        block.generation += 1
        block.ref_count = 1
        self._used += 1
        return block

    def _uncache(self, block: Block) -> None:
        if block.registered:
            if self._cached.get(block.hash) == block.block_id:  # type: ignore[arg-type]
                del self._cached[block.hash]  # type: ignore[arg-type]
            self._unindex(block)
        block.registered = False

    def _index(self, block: Block) -> None:
        self._children.setdefault(block.child_key, {})[block.block_id] = None

    def _unindex(self, block: Block) -> None:
        key = block.child_key
        siblings = self._children.get(key)
        if siblings is not None:
            siblings.pop(block.block_id, None)
            if not siblings:
                del self._children[key]

    def _acquire(self, block: Block) -> None:
        if block.ref_count == 0:
            if block.block_id not in self._evictable:
                raise BlockError(f"block {block.block_id} is free, not cached; cannot share it")
            del self._evictable[block.block_id]
            self._used += 1
        block.ref_count += 1

    def _release(self, block: Block) -> None:
        if block.ref_count <= 0:
            raise BlockError(f"double free of block {block.block_id}")
        block.ref_count -= 1
        if block.ref_count:
            return
        self._used -= 1
        if block.registered:
            self._evictable[block.block_id] = None  # most recently used end
        else:
            block.reset()
            # reused first (LIFO): pages of the lazily zeroed CPU pool that were never written stay untouched
            # (not resident), and a recently freed block is likely still in the CPU caches
            self._free.appendleft(block.block_id)

    def _canonical(self, block: Block) -> BlockRef:
        """The reference children of ``block`` record as their parent."""
        if block.registered or block.canonical is None:
            return block.ref
        canon_id, canon_gen = block.canonical
        if self.blocks[canon_id].generation == canon_gen:
            return block.canonical
        return block.ref

    # ------------------------------------------------------------------ prefix cache

    def _token_block(self, token_ids: Seq[int], index: int) -> tuple[int, ...]:
        size = self.block_size
        return tuple(token_ids[index * size:(index + 1) * size])

    def update_hashes(self, seq: Sequence) -> list[int]:
        """Extend ``seq.block_hashes`` to cover every full block of its tokens; return them."""
        hashes = seq.block_hashes
        for i in range(len(hashes), len(seq.token_ids) // self.block_size):
            parent = hashes[i - 1] if i else None
            hashes.append(self.hash_fn(parent, self._token_block(seq.token_ids, i), seq.extra_key))
        return hashes

    def match_prefix(self, seq: Sequence) -> list[int]:
        """Block ids of the longest verified cached prefix of ``seq``'s tokens (full blocks only).

        The last token is never matched: its logits must be computed. Takes no references.
        """
        if not self.enable_prefix_caching:
            return []
        max_blocks = (len(seq.token_ids) - 1) // self.block_size
        if max_blocks <= 0:
            return []
        hashes = self.update_hashes(seq)
        matched: list[int] = []
        parent: BlockRef | None = None
        for i in range(max_blocks):
            block_id = self._cached.get(hashes[i])
            if block_id is None:
                break
            block = self.blocks[block_id]
            if (block.parent != parent or block.extra_key != seq.extra_key
                    or block.token_ids != self._token_block(seq.token_ids, i)):
                break  # a hash collision: verified against the tokens, not the hash alone
            matched.append(block_id)
            parent = block.ref
        return matched

    def match_partial(self, seq: Sequence, computed: Seq[int]) -> PartialMatch | None:
        """The registered block continuing ``computed`` (the blocks from :meth:`match_prefix`) whose tokens
        share the longest common prefix ``m`` with ``seq``'s next tokens; None when ``m`` would be 0.

        ``1 <= m < block_size``, and ``computed`` plus ``m`` tokens leave the last token unmatched.
        Takes no references (:meth:`allocate_slots` holds the source).
        """
        if not (self.enable_prefix_caching and self.partial_block_reuse):
            return None
        start = len(computed) * self.block_size
        limit = min(self.block_size - 1, len(seq.token_ids) - 1 - start)
        if limit <= 0:
            return None
        parent = self.blocks[computed[-1]].ref if computed else None
        siblings = self._children.get((parent, seq.token_ids[start], seq.extra_key))
        if not siblings:
            return None
        wanted = seq.token_ids[start:start + limit]
        best: PartialMatch | None = None
        for scanned, block_id in enumerate(reversed(siblings)):  # newest first
            if scanned == PARTIAL_SCAN_LIMIT:
                break
            m = _common_prefix(self.blocks[block_id].token_ids, wanted)  # type: ignore[arg-type]
            if best is None or m > best.num_tokens:
                best = PartialMatch(block_id, m)
                if m == limit:
                    break
        return best

    def num_hit_tokens(self, computed: Seq[int], partial: PartialMatch | None = None) -> int:
        """Prompt tokens a prefix match serves from the cache: full blocks plus the partial run."""
        return len(computed) * self.block_size + (partial.num_tokens if partial else 0)

    def record_lookup(self, num_tokens: int, num_hit_tokens: int) -> None:
        """Count an admission's prefix lookup for the hit-rate gauge."""
        self.prefix_queries += num_tokens
        self.prefix_hits += num_hit_tokens

    def _register(self, block: Block, block_hash: int, token_ids: tuple[int, ...], extra_key: Any,
                  parent: BlockRef | None) -> None:
        if block.registered or block.token_ids is not None:
            return
        block.hash, block.token_ids, block.extra_key, block.parent = block_hash, token_ids, extra_key, parent
        existing_id = self._cached.get(block_hash)
        if existing_id is None:
            self._cached[block_hash] = block.block_id
            block.registered = True
            self._index(block)
            return
        existing = self.blocks[existing_id]
        if existing.token_ids == token_ids and existing.extra_key == extra_key and existing.parent == parent:
            block.canonical = existing.ref  # same content computed twice: keep the first as the entry

    def cache_full_blocks(self, seq: Sequence) -> None:
        """Register the blocks of ``seq`` that have become full (all tokens computed) in the prefix cache."""
        if not self.enable_prefix_caching:
            return
        full = min(seq.num_computed // self.block_size, len(seq.block_table))
        if full <= seq.num_cached_blocks:
            return
        hashes = self.update_hashes(seq)
        for i in range(seq.num_cached_blocks, full):
            block = self.blocks[seq.block_table[i]]
            parent = self._canonical(self.blocks[seq.block_table[i - 1]]) if i else None
            self._register(block, hashes[i], self._token_block(seq.token_ids, i), seq.extra_key, parent)
        seq.num_cached_blocks = full

    # ------------------------------------------------------------------ sequences

    def can_allocate(self, seq: Sequence, num_new_tokens: int, computed: Seq[int] | None = None,
                     reserve: int = 0, partial: PartialMatch | None = None) -> bool:
        """Whether :meth:`allocate_slots` would succeed and leave ``reserve`` blocks (changes nothing)."""
        needed = self._blocks_needed(seq, num_new_tokens, computed, partial)
        return needed + reserve <= self._available_for(computed, partial)

    def _blocks_needed(self, seq: Sequence, num_new_tokens: int, computed: Seq[int] | None,
                       partial: PartialMatch | None = None) -> int:
        if computed is not None:
            start = self.num_hit_tokens(computed, partial)
            return self.blocks_for(start + num_new_tokens) - len(computed)
        return self.blocks_for(seq.num_computed + num_new_tokens) - len(seq.block_table)

    def _available_for(self, computed: Seq[int] | None, partial: PartialMatch | None = None) -> int:
        """Blocks an admission can take: free plus evictable, less the evictable ones it will share or hold."""
        available = len(self._free) + len(self._evictable)
        if not computed and partial is None:
            return available  # the common case: a running sequence grows
        shared = set(computed or ())
        if partial is not None:
            shared.add(partial.block_id)
        return available - sum(1 for b in shared if self.blocks[b].ref_count == 0)

    def allocate_slots(self, seq: Sequence, num_new_tokens: int, computed: Seq[int] | None = None,
                       partial: PartialMatch | None = None) -> bool:
        """Make room for ``num_new_tokens`` more tokens of ``seq`` (all or nothing).

        ``computed``: at admission, the cached prefix blocks from :meth:`match_prefix`; they are shared
        (ref count + 1) and become the head of the block table. ``partial``: a match from
        :meth:`match_partial` (with ``computed``); its source block is *held* (ref count + 1, no block-table
        entry) and the sequence's next block, ``seq.block_table[len(computed)]``, is a fresh one into which
        the caller must copy the source's K/V, then call :meth:`release_source`. ``num_new_tokens`` counts
        the tokens after the match. Returns False, changing nothing, when the pool cannot provide the blocks.
        """
        if computed is not None and seq.block_table:
            raise BlockError(f"sequence {seq.seq_id} already holds blocks")
        if partial is not None and computed is None:
            raise BlockError("a partial match needs the full-block match it continues")
        needed = self._blocks_needed(seq, num_new_tokens, computed, partial)
        if needed > self._available_for(computed, partial):
            return False
        if computed is not None:
            for block_id in computed:
                self._acquire(self.blocks[block_id])
            seq.block_table = list(computed)
            seq.num_cached_blocks = len(computed)
        if partial is not None:
            self._hold(partial.block_id)
        for _ in range(max(needed, 0)):
            seq.block_table.append(self._take().block_id)
        return True

    def _hold(self, block_id: int) -> None:
        block = self.blocks[block_id]
        if not block.registered:
            raise BlockError(f"block {block_id} is not a registered block; it cannot be a copy source")
        self._acquire(block)
        self._held[block_id] = self._held.get(block_id, 0) + 1

    def release_source(self, block_id: int) -> None:
        """Drop one hold on a partial match's copy source (its copy ran, or will never run)."""
        count = self._held.get(block_id, 0)
        if not count:
            raise BlockError(f"block {block_id} is not held as a copy source")
        if count == 1:
            del self._held[block_id]
        else:
            self._held[block_id] = count - 1
        self._release(self.blocks[block_id])

    def free(self, seq: Sequence) -> None:
        """Release every block of ``seq`` (tail first, so the LRU evicts the tail of a prefix first)."""
        table, seq.block_table = seq.block_table, []
        seq.num_cached_blocks = 0
        for block_id in reversed(table):
            self._release(self.blocks[block_id])

    def truncate(self, seq: Sequence, num_tokens: int) -> int:
        """Release the tail blocks of ``seq`` beyond those holding its first ``num_tokens`` tokens.

        Used after speculative verification: the slots of rejected draft tokens are dropped (a partly
        kept block's stale slots are overwritten by later tokens and never attended to, since attention
        reads only up to the context length). Registered blocks are never released here: they hold
        computed, accepted tokens only. Returns the number of blocks released.
        """
        keep = max(self.blocks_for(num_tokens), seq.num_cached_blocks)
        released = 0
        while len(seq.block_table) > keep:
            self._release(self.blocks[seq.block_table.pop()])
            released += 1
        return released

    def fork(self, parent: Sequence, child: Sequence) -> list[tuple[int, int]] | None:
        """Give ``child`` the parent's computed prompt: full blocks shared, the partial tail block copied.

        Returns the ``(src, dst)`` block pairs whose K/V the runner must copy, or None (changing nothing)
        when no block is left for the tail copy.
        """
        if child.block_table:
            raise BlockError(f"sequence {child.seq_id} already holds blocks")
        full = parent.num_computed // self.block_size
        partial = len(parent.block_table) > full
        if partial and not self.num_available_blocks:
            return None
        for block_id in parent.block_table[:full]:
            self._acquire(self.blocks[block_id])
        child.block_table = list(parent.block_table[:full])
        copies: list[tuple[int, int]] = []
        if partial:
            new = self._take()
            copies.append((parent.block_table[full], new.block_id))
            child.block_table.append(new.block_id)
        child.num_computed = parent.num_computed
        child.num_cached_blocks = min(parent.num_cached_blocks, full)
        child.block_hashes = list(parent.block_hashes[:len(child.token_ids) // self.block_size])
        return copies

    # ------------------------------------------------------------------ checks

    def check_invariants(self) -> None:
        """Raise AssertionError if the bookkeeping is inconsistent (used by tests)."""
        free, evictable = set(self._free), set(self._evictable)
        assert len(free) == len(self._free), "a block is in the free list twice"
        assert not free & evictable, "a block is both free and cached"
        used = {b.block_id for b in self.blocks if b.ref_count > 0}
        assert all(b.ref_count >= 0 for b in self.blocks), "negative ref count"
        assert not used & (free | evictable), "a referenced block is free or cached"
        assert len(free) + len(used) + len(evictable) == self.num_blocks, "free + used + cached != total"
        assert len(used) == self._used
        for block_id in evictable:
            assert self.blocks[block_id].registered, "an evictable block is not registered"
        for block_id in free:
            block = self.blocks[block_id]
            assert not block.registered and block.token_ids is None, "a free block holds content"
        for block_hash, block_id in self._cached.items():
            block = self.blocks[block_id]
            assert block.registered and block.hash == block_hash, "cache entry mismatch"
        registered = {b.block_id for b in self.blocks if b.registered}
        assert registered == set(self._cached.values()), "a registered block is not the entry of its hash"
        indexed = [(key, block_id) for key, ids in self._children.items() for block_id in ids]
        assert all(self._children.values()), "an empty partial-match index entry"
        assert {block_id for _, block_id in indexed} == registered and len(indexed) == len(registered), (
            "the partial-match index does not list exactly the registered blocks")
        for key, block_id in indexed:
            assert self.blocks[block_id].child_key == key, "a block is indexed under another key"
        for block_id, count in self._held.items():
            block = self.blocks[block_id]
            assert count > 0 and block.ref_count >= count, "a held copy source lost its references"
            assert block.registered, "a held copy source is not registered"
