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


AGENT_RULES_LONG = """
Escalation and tone:
- Dispatchers are busy: lead with the answer, then the one next step. Never repeat the question back.
- When a shipment is late, give the last scan, the expected delivery window and whether a claim is possible.
- If a tool fails, say which lookup failed and offer to retry; do not guess the missing value.
- Never share a customer's address, phone number or e-mail with anyone but the sender or the receiver.
Service levels:
- Standard: domestic one to three working days, no signature. Express: next working day before noon, signature.
- Economy international: five to ten working days, tracked to the border. Priority international: two to five.
- Same-day courier is available in London, Leeds, Manchester and Birmingham for orders placed before 11:00.
Claims and refunds:
- Damage claims need photos of the parcel and the packaging within seven days of delivery.
- Loss claims open ten working days after the last scan; refunds are paid within fourteen days of approval.
- Compensation is capped at the declared value, and at 100 GBP without extra cover."""


def _long_tools() -> list[dict[str, Any]]:
    """Twelve tools with described parameters: about 1,000 tokens rendered, a typical agent's share
    of its prompt."""
    def tool(name: str, description: str, properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
        return {"type": "function", "function": {"name": name, "description": description, "parameters": {
            "type": "object", "properties": properties, "required": required}}}

    def text(description: str) -> dict[str, Any]:
        return {"type": "string", "description": description}

    tracking = text("The tracking number, AC- followed by five digits.")
    depot = text("The depot's city, for example Leeds.")
    return [
        *_tools(),
        tool("reschedule_pickup", "Move a booked pick-up to another working day; allowed once without a fee.",
             {"booking_id": text("The pick-up booking id."), "date": {"type": "string", "format": "date",
                                                                      "description": "The new date."}},
             ["booking_id", "date"]),
        tool("quote_price", "The price of sending a parcel, by service level, weight and destination.",
             {"service": {"type": "string", "enum": ["standard", "express", "economy", "priority"],
                          "description": "The service level."},
              "weight_kg": {"type": "number", "description": "The parcel's weight in kilograms."},
              "destination": text("The destination country code (ISO 3166-1 alpha-2).")},
             ["service", "weight_kg", "destination"]),
        tool("customs_requirements", "The documents and duties a destination country asks for.",
             {"destination": text("The destination country code."), "goods": text("What the parcel contains.")},
             ["destination"]),
        tool("depot_hours", "Opening hours of a depot on a date, including bank holidays.",
             {"depot": depot, "date": {"type": "string", "format": "date"}}, ["depot"]),
        tool("delivery_window", "The expected delivery window of a shipment from its last scan.",
             {"tracking_number": tracking}, ["tracking_number"]),
        tool("update_address", "Change the delivery address before the parcel leaves the depot; needs the "
             "sender's consent.", {"tracking_number": tracking, "address": text("The new full address."),
                                   "consent": {"type": "boolean", "description": "Whether the sender agreed."}},
             ["tracking_number", "address", "consent"]),
        tool("dangerous_goods_check", "Whether an item may travel and which declaration it needs.",
             {"item": text("The item, for example 'laptop with battery'."),
              "mode": {"type": "string", "enum": ["road", "air"], "description": "How it travels."}},
             ["item"]),
        tool("escalate_to_human", "Hand the conversation to a human dispatcher with a short summary.",
             {"summary": text("One or two sentences for the dispatcher."),
              "urgency": {"type": "string", "enum": ["low", "normal", "high"]}}, ["summary"]),
    ]


DOCUMENTS_LONG = DOCUMENTS + (
    "Article: Express delivery. Express parcels booked before 17:00 arrive the next working day before noon. "
    "A signature is always required. If nobody is home, the driver leaves a card and tries again the next day; "
    "after two attempts the parcel waits at the depot for seven days.",
    "Article: Changing an address. The delivery address can be changed until the parcel leaves the depot, "
    "with the sender's consent. Changes to another country are not possible; the parcel must be returned "
    "and sent again.",
    "Article: Returns. Receivers can refuse a parcel at the door; it returns to the sender within ten working "
    "days. Return labels bought online are valid for thirty days and can be dropped at any depot.",
    "Article: Opening hours. Depots open 07:00 to 19:00 on working days and 08:00 to 13:00 on Saturdays. "
    "They are closed on Sundays and bank holidays. Drop-offs after 17:00 leave the next working day.",
)


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


SHAPES = ("short", "long")


def make_trace(seed: int = 0, sessions: int = 6, turns: int = 3, shape: str = "short") -> list[TraceRequest]:
    """``sessions`` sessions (alternately agent and RAG) of ``turns`` turns each, interleaved
    round-robin, one second or more apart, all derived from ``seed``.

    ``shape``: ``short`` (a ~270-token agent system prompt and four small tools, 4 of 6 short
    articles per RAG session: ~600-token agent and ~300-token RAG
    prompts, tools rendered as the bundled backend does) or ``long`` (the agent prompt with a page of
    rules and twelve described tools, 6 of 10 articles per RAG session: ~1,800-token agent and
    ~450-token RAG prompts, closer to what agents send)."""
    if shape not in SHAPES:
        raise ValueError(f"shape must be one of {SHAPES}, got {shape!r}")
    long = shape == "long"
    agent_system = AGENT_SYSTEM + AGENT_RULES_LONG if long else AGENT_SYSTEM
    make_tools = _long_tools if long else _tools
    documents, per_session = (DOCUMENTS_LONG, 6) if long else (DOCUMENTS, 4)
    rng = random.Random(seed)
    clock = datetime(2025, 3, 14, 9, 26, 53, tzinfo=UTC)
    plans = []
    for s in range(sessions):
        kind = "agent" if s % 2 == 0 else "rag"
        questions = rng.sample(AGENT_QUESTIONS if kind == "agent" else RAG_QUESTIONS, turns)
        retrieved = rng.sample(documents, per_session)
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
                tools = _scrambled(make_tools(), rng)
                rng.shuffle(tools)
                body = {"messages": [{"role": "system", "content": agent_system.format(now=now, session=session_id)},
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
