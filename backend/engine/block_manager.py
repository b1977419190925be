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


def chained_hash(parent: int | None, token_ids: tuple[int, ...], extra_key: Any) -> int:
    """Hash of a full block given its parent block's hash (None for the first block)."""
    return hash((parent, token_ids, extra_key))


class NoFreeBlocksError(RuntimeError):
    """The pool has no free or evictable block left."""


class BlockError(RuntimeError):
    """A bookkeeping violation (double free, releasing an unowned block)."""


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

    def reset(self) -> None:
        self.hash = None
        self.token_ids = None
        self.extra_key = None
        self.parent = None
        self.registered = False
        self.canonical = None


class BlockManager:
    """Owns the pool's block bookkeeping and every sequence's block table."""

    def __init__(self, num_blocks: int, block_size: int, enable_prefix_caching: bool = True,
                 hash_fn: HashFn = chained_hash) -> None:
        if num_blocks < 1 or block_size < 1:
            raise ValueError("num_blocks and block_size must be positive")
        self.num_blocks = num_blocks
        self.block_size = block_size
        self.enable_prefix_caching = enable_prefix_caching
        self.hash_fn = hash_fn
        self.blocks = [Block(i) for i in range(num_blocks)]
        self._free: deque[int] = deque(range(num_blocks))
        self._evictable: OrderedDict[int, None] = OrderedDict()  # LRU: oldest first
        self._cached: dict[int, int] = {}  # chained hash → registered block id
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
        if block.registered and self._cached.get(block.hash) == block.block_id:  # type: ignore[arg-type]
            del self._cached[block.hash]  # type: ignore[arg-type]
        block.registered = False

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
                     reserve: int = 0) -> bool:
        """Whether :meth:`allocate_slots` would succeed and leave ``reserve`` blocks (changes nothing)."""
        return self._blocks_needed(seq, num_new_tokens, computed) + reserve <= self._available_for(computed)

    def _blocks_needed(self, seq: Sequence, num_new_tokens: int, computed: Seq[int] | None) -> int:
        if computed is not None:
            return self.blocks_for(len(computed) * self.block_size + num_new_tokens) - len(computed)
        return self.blocks_for(seq.num_computed + num_new_tokens) - len(seq.block_table)

    def _available_for(self, computed: Seq[int] | None) -> int:
        available = len(self._free) + len(self._evictable)
        if computed:
            available -= sum(1 for b in computed if self.blocks[b].ref_count == 0)
        return available

    def allocate_slots(self, seq: Sequence, num_new_tokens: int, computed: Seq[int] | None = None) -> bool:
        """Make room for ``num_new_tokens`` more tokens of ``seq`` (all or nothing).

        ``computed``: at admission, the cached prefix blocks from :meth:`match_prefix`; they are shared
        (ref count + 1) and become the head of the block table. Returns False, changing nothing, when
        the pool cannot provide the blocks.
        """
        if computed is not None and seq.block_table:
            raise BlockError(f"sequence {seq.seq_id} already holds blocks")
        needed = self._blocks_needed(seq, num_new_tokens, computed)
        if needed > self._available_for(computed):
            return False
        if computed:
            for block_id in computed:
                self._acquire(self.blocks[block_id])
            seq.block_table = list(computed)
            seq.num_cached_blocks = len(computed)
        for _ in range(max(needed, 0)):
            seq.block_table.append(self._take().block_id)
        return True

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
