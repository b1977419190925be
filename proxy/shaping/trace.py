"""A seeded agent/RAG-style chat trace for ``thrifty eval shaping``.

What real traffic does to a prefix cache, in small: agent sessions share one long system prompt
that carries the current date and time (to the second) and a session id, with tool definitions
whose keys and order vary by client; RAG sessions share another system prompt with a timestamp
and retrieve the same documents in a different order each turn; every session is multi-turn and
sessions interleave. RAG requests carry their session's retrieved articles in a context message
after the system prompt (the same articles each turn, in another order), marked unordered through
the ``thrifty`` extension field.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

AGENT_SYSTEM = """You are Orbit, the operations assistant of ACME Logistics. You help dispatchers track shipments, \
book pick-ups and answer questions about delivery rules.
Current date and time: {now}
Session id: {session}
Rules:
- Answer in at most three sentences unless the dispatcher asks for a list.
- Use the tools to look up shipments and depots; never invent a tracking number or an address.
- Domestic parcels arrive in one to three working days; international parcels in three to ten.
- Pick-ups can be booked for the next working day before 16:00 local time at the depot.
- Parcels above 30 kg need a freight booking, which a human dispatcher confirms.
- Dangerous goods (batteries, solvents, gas cylinders) need a declaration form before pick-up.
- If a customer is angry, acknowledge the problem first and offer the next concrete step.
- Say when you are unsure, and suggest who at ACME can answer instead."""

RAG_SYSTEM = """You are the help-centre assistant of ACME Logistics. Answer the customer's question using only the \
retrieved help articles in the conversation. Quote the article title you used. If the articles do not answer the \
question, say so and suggest contacting support at the depot.
Current time: {now}"""

DOCUMENTS = (
    "Article: Delivery times. Domestic parcels arrive in one to three working days. International parcels take "
    "three to ten working days depending on customs. Express delivery arrives the next working day before noon.",
    "Article: Pick-up booking. Book a pick-up online before 16:00 for collection on the next working day. The "
    "driver calls thirty minutes before arrival. Pick-ups can be rescheduled once without a fee.",
    "Article: Weight limits. Parcels up to 30 kg travel as standard parcels. Heavier items need a freight booking "
    "and a pallet. Each side of a parcel must be shorter than 120 cm.",
    "Article: Dangerous goods. Lithium batteries, solvents and gas cylinders need a declaration form. Loose "
    "batteries are refused. Devices with installed batteries may travel by road only.",
    "Article: Lost parcels. A parcel is reported lost after ten working days without a scan. File a claim online "
    "with the tracking number and proof of value; refunds are paid within fourteen days.",
    "Article: Customs. International parcels need a commercial invoice. Duties are paid by the receiver unless "
    "the sender chose delivered duty paid. Customs checks can add two to five days.",
)

AGENT_QUESTIONS = (
    "Where is shipment AC-48213 right now?", "Can you book a pick-up at the Leeds depot for tomorrow?",
    "The customer says the parcel is damaged. What should I tell them?", "How long will a parcel to Spain take?",
    "Is a 35 kg crate a normal parcel?", "Can we ship a laptop with its battery inside?",
)
AGENT_ANSWERS = (
    "Let me look that up with the shipment tool.", "I can book that; the driver will call before arrival.",
    "Apologise first, then offer to open a damage claim.", "International parcels take three to ten working days.",
)
RAG_QUESTIONS = (
    "How long does delivery to France take?", "Can I send a parcel that weighs 40 kg?",
    "My parcel has not moved for two weeks. What can I do?", "Do I need a form to send batteries?",
    "Who pays the import duties?", "Until when can I book a pick-up for tomorrow?",
)
RAG_ANSWERS = (
    "According to 'Delivery times', international parcels take three to ten working days.",
    "According to 'Weight limits', items above 30 kg need a freight booking.",
)


def _tools() -> list[dict[str, Any]]:
    def tool(name: str, description: str, properties: dict[str, Any]) -> dict[str, Any]:
        return {"type": "function", "function": {"name": name, "description": description, "parameters": {
            "type": "object", "properties": properties, "required": sorted(properties)}}}

    return [
        tool("track_shipment", "Current status and last scan of a shipment.",
             {"tracking_number": {"type": "string", "description": "AC- followed by digits"}}),
        tool("book_pickup", "Book a pick-up at a depot for a date.",
             {"depot": {"type": "string"}, "date": {"type": "string", "format": "date"}}),
        tool("find_depot", "The nearest depot to a postcode.", {"postcode": {"type": "string"}}),
        tool("open_claim", "Open a damage or loss claim.",
             {"tracking_number": {"type": "string"}, "kind": {"type": "string", "enum": ["damage", "loss"]}}),
    ]


def _scrambled(value: Any, rng: random.Random, keep_order: bool = False) -> Any:
    """The same JSON value with every object's keys in a random order (what different clients'
    serialisers send), except the members of a schema's ``properties``, whose order is the
    developer's (structured output follows it, so safe shaping keeps it too)."""
    if isinstance(value, dict):
        keys = list(value)
        if not keep_order:
            rng.shuffle(keys)
        return {k: _scrambled(value[k], rng, keep_order=k == "properties") for k in keys}
    if isinstance(value, list):
        return [_scrambled(v, rng) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class TraceRequest:
    """One request of the trace: its session, turn, kind (``agent`` | ``rag``) and body (without
    ``model``, ``stream`` or a limit, which the replay sets)."""

    session: int
    turn: int
    kind: str
    body: dict[str, Any]


def make_trace(seed: int = 0, sessions: int = 6, turns: int = 3) -> list[TraceRequest]:
    """``sessions`` sessions (alternately agent and RAG) of ``turns`` turns each, interleaved
    round-robin, one second or more apart, all derived from ``seed``."""
    rng = random.Random(seed)
    clock = datetime(2025, 3, 14, 9, 26, 53, tzinfo=UTC)
    plans = []
    for s in range(sessions):
        kind = "agent" if s % 2 == 0 else "rag"
        questions = rng.sample(AGENT_QUESTIONS if kind == "agent" else RAG_QUESTIONS, turns)
        retrieved = rng.sample(DOCUMENTS, 4)
        plans.append((kind, f"sess_{rng.getrandbits(40):010x}", questions, retrieved))
    out: list[TraceRequest] = []
    for turn in range(turns):
        for s, (kind, session_id, questions, retrieved) in enumerate(plans):
            clock += timedelta(seconds=rng.randint(1, 20))
            now = clock.strftime("%Y-%m-%d %H:%M:%S UTC")
            answers = AGENT_ANSWERS if kind == "agent" else RAG_ANSWERS
            history: list[dict[str, Any]] = []
            for t in range(turn):
                history += [{"role": "user", "content": questions[t]},
                            {"role": "assistant", "content": answers[(s + t) % len(answers)]}]
            if kind == "agent":
                tools = _scrambled(_tools(), rng)
                rng.shuffle(tools)
                body = {"messages": [{"role": "system", "content": AGENT_SYSTEM.format(now=now, session=session_id)},
                                     *history, {"role": "user", "content": questions[turn]}],
                        "tools": tools}
            else:  # the session's retrieved articles, re-retrieved in another order each turn, in a context message
                docs = list(retrieved)
                rng.shuffle(docs)
                parts = [{"type": "text", "text": "Retrieved help articles:\n\n"},
                         *({"type": "text", "text": d + "\n\n"} for d in docs)]
                messages = [{"role": "system", "content": RAG_SYSTEM.format(now=now)},
                            {"role": "system", "content": parts}, *history,
                            {"role": "user", "content": questions[turn]}]
                body = {"messages": messages, "thrifty": {"documents": [{"message": 1, "parts": [1, 1 + len(docs)]}]}}
            out.append(TraceRequest(s, turn, kind, body))
    return out
