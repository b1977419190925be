"""The fixed evaluation text of ``thrifty eval kv-cache``: original prose written for this repository.

It is a self-contained essay (about 1,400 tokens for SmolLM2's tokenizer), so the perplexity figure
does not depend on any downloaded data set.
"""

from __future__ import annotations

KV_EVAL_TEXT = """\
The old ferry across the estuary ran for a little more than ninety years, and for most of that time it was \
the only way to reach the market town without a long detour through the hills. It was not a large boat. \
At its busiest it carried forty passengers, a handful of bicycles, and on Thursdays a cart of vegetables \
that the farmers on the northern shore sent across before dawn. The crossing took eleven minutes in calm \
weather and nearly half an hour when the wind came in from the sea and pushed the tide against the current.

The people who worked the ferry kept a logbook, and several volumes of it survive in the town library. \
They are not exciting documents. Most entries record the time of each crossing, the number of passengers, \
and the state of the water. But read slowly, they describe a whole way of life. In winter the first boat \
left at half past six, and the ferryman noted when ice formed along the landing stage. In summer the \
entries grow longer, because visitors arrived from the city and asked questions, and the crew liked to \
write down the strangest ones. One visitor wanted to know whether the river flowed backwards at night. \
Another asked if the boat could wait while she finished her lunch on the far bank. It did wait, the log \
says, for four minutes.

The engine was replaced three times. The first boat was driven by steam, and its boiler needed an hour of \
attention before the morning crossing. The second used a diesel engine that was cheaper to run but so loud \
that conversation on deck was impossible. The third, installed after a long argument in the town council, \
was quieter and more reliable, and it lasted until the service ended. Each change is recorded in the log \
with the same brief pride: a new engine, tested, working well. The crew seem to have regarded the machines \
as colleagues rather than tools, and they gave each one a name.

What ended the ferry was not a storm or an accident but a bridge. For decades the town had asked for one, \
and for decades the request was refused because the estuary was too wide and the ground on the southern \
side too soft. When engineers finally found a way to build it, the work took four years. During that time \
the ferry carried the builders as well as its usual passengers, and the log fills with their names, their \
tools, and their complaints about the weather. The last entry was written on a clear morning in early \
autumn. It gives the time of the crossing, the number of passengers, and a single extra line: last crossing, \
calm water, everyone aboard.

It would be easy to treat this as a sad story, but the people who remember the ferry rarely describe it \
that way. They talk instead about small things. The smell of the engine room on a cold morning. The way the \
ferryman knew every regular passenger and saved a seat near the window for the schoolteacher who suffered \
from seasickness. The dog that travelled across and back every afternoon without an owner, and was \
eventually adopted by the crew. These details do not appear in any history of transport, yet they are the \
reason the ferry is still discussed in the town, long after the bridge became ordinary.

There is a lesson here about how we measure the value of a service. A planner looking at the numbers would \
see a slow crossing with a limited capacity, costly to maintain and vulnerable to the weather. By those \
measures the bridge was clearly better, and nobody in the town argues otherwise. The bridge carries more \
people, in less time, at any hour, in almost any conditions. But the numbers leave out what the crossing \
meant to the people who used it every day. The ferry was a place where neighbours met, where news was \
exchanged, and where strangers were made welcome. When it closed, the town gained speed and lost a meeting \
place, and it took years to notice the second part of that exchange.

Some towns in a similar position have tried to keep both. They run a small boat in the summer for visitors, \
or they turn the old landing stage into a café with a view of the water. These efforts are usually kind and \
sometimes successful, but they cannot recreate the original arrangement, because that arrangement depended \
on necessity. People talked on the ferry because they had eleven minutes with nothing else to do. Remove \
the necessity and the conversation moves somewhere else, or disappears.

The library keeps the logbooks in a grey cabinet near the reading room, and anyone may ask to see them. \
Most of the people who do are students writing about local history, or older residents looking for the \
names of their parents and grandparents. A few come simply because they like the idea of a record kept so \
carefully for so long, without any expectation that it would ever be read. The handwriting changes every \
few years as one ferryman retires and another takes over, but the format stays almost exactly the same: \
date, time, passengers, water. It is a reminder that most of the work that holds a place together is \
quiet, repetitive, and easy to overlook, and that it is only when such work stops that we understand how \
much depended on it.

Today the bridge is busy from morning to night. Lorries cross it on their way to the port, and commuters \
drive over it without looking at the water below. On a clear day, if you stand in the middle and look \
towards the sea, you can still see the two landing stages, one on each shore, slowly being covered by \
weeds. Children sometimes ask what they were for. The answer takes longer than eleven minutes to give, \
and it usually begins with the logbook.
"""
