"""A small multiple-choice task set written here, for scoring quantized weights (issue 15, item 4).

289 items a 135M model can partly answer, generated deterministically from tables in this module:
addition of small numbers, the larger of two numbers, the day or month after another, capitals of
countries, opposites and irregular plurals. Each item is a one-shot prompt and 2-4 options; an item is
answered correctly when its gold option has the highest total log-probability as a continuation of
the prompt (teacher-forced through the model's single-request path, so no sampling is involved).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")
CAPITALS = (("France", "Paris"), ("Germany", "Berlin"), ("Italy", "Rome"), ("Spain", "Madrid"),
            ("Japan", "Tokyo"), ("China", "Beijing"), ("Russia", "Moscow"), ("Egypt", "Cairo"),
            ("Greece", "Athens"), ("Portugal", "Lisbon"), ("Ireland", "Dublin"), ("Austria", "Vienna"),
            ("Norway", "Oslo"), ("Sweden", "Stockholm"), ("Finland", "Helsinki"), ("Denmark", "Copenhagen"),
            ("Poland", "Warsaw"), ("Hungary", "Budapest"), ("Belgium", "Brussels"), ("Netherlands", "Amsterdam"),
            ("Canada", "Ottawa"), ("Mexico", "Mexico City"), ("Argentina", "Buenos Aires"), ("Peru", "Lima"),
            ("Chile", "Santiago"), ("Kenya", "Nairobi"), ("India", "New Delhi"), ("Thailand", "Bangkok"),
            ("South Korea", "Seoul"), ("Turkey", "Ankara"), ("Iran", "Tehran"), ("Cuba", "Havana"),
            ("England", "London"), ("Scotland", "Edinburgh"), ("Australia", "Canberra"),
            ("the United States", "Washington"), ("Vietnam", "Hanoi"), ("Czechia", "Prague"),
            ("Colombia", "Bogota"), ("Ukraine", "Kyiv"))
OPPOSITES = (("hot", "cold"), ("big", "small"), ("fast", "slow"), ("happy", "sad"), ("up", "down"),
             ("day", "night"), ("open", "closed"), ("light", "dark"), ("old", "young"), ("rich", "poor"),
             ("wet", "dry"), ("full", "empty"), ("hard", "soft"), ("early", "late"), ("tall", "short"),
             ("heavy", "light"), ("strong", "weak"), ("loud", "quiet"), ("clean", "dirty"), ("true", "false"),
             ("left", "right"), ("win", "lose"), ("buy", "sell"), ("inside", "outside"), ("first", "last"),
             ("north", "south"), ("east", "west"), ("push", "pull"), ("begin", "end"), ("cheap", "expensive"))
PLURALS = (("mouse", "mice"), ("child", "children"), ("foot", "feet"), ("tooth", "teeth"), ("man", "men"),
           ("woman", "women"), ("goose", "geese"), ("person", "people"), ("box", "boxes"), ("city", "cities"),
           ("leaf", "leaves"), ("knife", "knives"), ("wolf", "wolves"), ("baby", "babies"), ("bus", "buses"),
           ("dish", "dishes"), ("fish", "fish"), ("sheep", "sheep"), ("ox", "oxen"), ("cactus", "cacti"))


@dataclass(frozen=True, slots=True)
class TaskItem:
    """One multiple-choice item: ``prompt`` text, ``options`` (each a continuation, leading space
    included), the index of the right one, and the family it belongs to."""

    family: str
    prompt: str
    options: tuple[str, ...]
    answer: int


def _item(family: str, rng: random.Random, example: str, question: str, gold: str,
          distractors: Sequence[str], n_options: int = 4) -> TaskItem:
    pool = [d for d in dict.fromkeys(distractors) if d != gold]
    options = [gold, *rng.sample(pool, min(n_options - 1, len(pool)))]
    rng.shuffle(options)
    return TaskItem(family, f"{example}\n\n{question}", tuple(f" {o}" for o in options), options.index(gold))


def build_tasks(seed: int = 0) -> list[TaskItem]:
    """The fixed item list (deterministic for a given ``seed``)."""
    rng = random.Random(seed)
    items: list[TaskItem] = []
    shot = "Question: What is 2 + 3?\nAnswer: 5"
    for _ in range(100):
        a, b = rng.randint(1, 20), rng.randint(1, 20)
        s = a + b
        items.append(_item("addition", rng, shot, f"Question: What is {a} + {b}?\nAnswer:", str(s),
                           [str(s + d) for d in (-2, -1, 1, 2, 10, -10) if s + d > 0]))
    shot = "Question: Which number is larger, 12 or 7?\nAnswer: 12"
    for _ in range(80):
        a, b = rng.sample(range(1, 100), 2)
        items.append(_item("larger number", rng, shot, f"Question: Which number is larger, {a} or {b}?\nAnswer:",
                           str(max(a, b)), [str(min(a, b))], n_options=2))
    shot = "Question: Which day comes after Friday?\nAnswer: Saturday"
    for i, day in enumerate(DAYS):
        items.append(_item("next day", rng, shot, f"Question: Which day comes after {day}?\nAnswer:",
                           DAYS[(i + 1) % 7], DAYS))
    shot = "Question: Which month comes after March?\nAnswer: April"
    for i, month in enumerate(MONTHS):
        items.append(_item("next month", rng, shot, f"Question: Which month comes after {month}?\nAnswer:",
                           MONTHS[(i + 1) % 12], MONTHS))
    shot = "Question: What is the capital of Italy?\nAnswer: Rome"
    cities = [c for _, c in CAPITALS]
    for country, city in CAPITALS:
        items.append(_item("capital", rng, shot, f"Question: What is the capital of {country}?\nAnswer:",
                           city, cities))
    shot = "Question: What is the opposite of good?\nAnswer: bad"
    words = [w for pair in OPPOSITES for w in pair]
    for word, opposite in OPPOSITES:
        items.append(_item("opposite", rng, shot, f"Question: What is the opposite of {word}?\nAnswer:",
                           opposite, [w for w in words if w != word]))
    shot = "Question: What is the plural of cat?\nAnswer: cats"
    for word, plural in PLURALS:
        wrong = [word + "s", word + "es", plural + "s", word]
        items.append(_item("plural", rng, shot, f"Question: What is the plural of {word}?\nAnswer:", plural, wrong))
    return items


@dataclass(frozen=True, slots=True)
class EncodedItem:
    """A :class:`TaskItem` as token ids."""

    family: str
    prompt: tuple[int, ...]
    options: tuple[tuple[int, ...], ...]
    answer: int


def encode_tasks(items: Sequence[TaskItem], encode: Callable[[str], list[int]]) -> list[EncodedItem]:
    """Tokenize items; an option's ids are those of ``prompt + option`` past the prompt's own ids."""
    out = []
    for item in items:
        prompt = encode(item.prompt)
        options = []
        for option in item.options:
            full = encode(item.prompt + option)
            if full[:len(prompt)] != prompt or len(full) == len(prompt):
                full = prompt + encode(option)
            options.append(tuple(full[len(prompt):]))
        out.append(EncodedItem(item.family, tuple(prompt), tuple(options), item.answer))
    return out


def choose(loaded: Any, item: EncodedItem) -> int:
    """The option with the highest total log-probability after ``item.prompt`` (single-request path)."""
    import torch

    from backend.model import ContiguousKVCache

    model = loaded.model
    longest = len(item.prompt) + max(map(len, item.options))
    cache = ContiguousKVCache(model.config, longest, loaded.dtype, loaded.device)
    ids = torch.tensor(item.prompt, device=loaded.device)
    hidden = model(ids, torch.arange(len(ids), device=loaded.device), cache)  # [P, H]
    first = torch.log_softmax(model.compute_logits(hidden[-1:]), dim=-1)[0]  # [V]
    scores = []
    for option in item.options:
        cache.truncate(len(item.prompt))
        score = float(first[option[0]])
        if len(option) > 1:
            ids = torch.tensor(option[:-1], device=loaded.device)
            positions = torch.arange(len(item.prompt), len(item.prompt) + len(ids), device=loaded.device)
            logp = torch.log_softmax(model.compute_logits(model(ids, positions, cache)), dim=-1)  # [O-1, V]
            score += float(logp.gather(1, torch.tensor(option[1:], device=loaded.device)[:, None]).sum())
        scores.append(score)
    return max(range(len(scores)), key=scores.__getitem__)


def answer_all(loaded: Any, items: Sequence[EncodedItem]) -> list[int]:
    """:func:`choose` for every item."""
    return [choose(loaded, item) for item in items]
