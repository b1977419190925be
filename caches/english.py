"""Closed classes of English that verification reads (function words, negations, relational words, question
words, auxiliaries and modals, personal pronouns, number words, irregular verb forms, social formulas) and the
phrase rewrites applied before words are compared (contractions, chat spellings, request frames, question
forms). Grammar, never topic words: see :mod:`caches.text_features` for how they are used.
"""

from __future__ import annotations

import re

__all__ = [
    "AUXILIARIES",
    "BE_FORMS",
    "CODE_FOLLOWS",
    "CODE_KIND",
    "CODE_MARKS",
    "CODE_REFERENCE",
    "CLITICS",
    "CONDITIONALS",
    "CONTRACTIONS",
    "DISCOURSE_OPENERS",
    "DO_FORMS",
    "FUNCTION_WORDS",
    "INTERJECTIONS",
    "IRREGULAR_PARTICIPLES",
    "JUDGING_ADJECTIVES",
    "LONG_FUNCTION_WORDS",
    "MANNER_PHRASE",
    "MID_ADVERBS",
    "MODAL_ADJECTIVES",
    "MODALS",
    "NEGATING_PREFIXES",
    "NEGATIONS",
    "NUMBER_WORDS",
    "OBLIGED",
    "PERSONS",
    "POSSESSIVE_PRONOUNS",
    "PHATIC",
    "PHATIC_CORE",
    "QUESTION_LEADS",
    "QUESTION_WORDS",
    "RELATIONAL",
    "REQUEST_FRAMES",
    "REWORDED_FRAMES",
    "SENTENCE_ENDS",
    "SENTENCE_PUNCTUATION",
    "SIMPLE_PASTS",
    "SHORT_FUNCTION_WORDS",
    "ADVERBIAL_OPENERS",
    "REQUEST_VERBS",
    "STANCE_VERBS",
    "SUBORDINATORS",
    "SUBJECT_PRONOUNS",
    "SUBJECT_QUESTIONS",
    "TENSES",
    "TOPIC_RELATIONS",
]

# --- closed classes of English function words (grammar, not topics) -----------------------------

FUNCTION_WORDS = frozenset(
    """
    a an the this that these those some any such own same
    i me my mine myself we us our ours ourselves you your yours yourself yourselves he him his himself
    she her hers herself it its itself they them their theirs themselves one's
    is are was were be been being am do does did doing done have has had having
    will would shall should can could may might must ought
    s t d ll re ve m
    please kindly hi hello hey dear thanks thank ok okay yes just really actually also even so
    tell give show explain describe help want wanted like need know let lets let's wonder recommend suggest
    there here now just very quite rather
    e.g i.e etc viz cf
    """.split()
)
# irregular simple pasts that are not also participles (a closed class of English verbs): *I ate* is not
# *I eat* or *I want to eat*, whatever auxiliaries the sentence has
SIMPLE_PASTS = frozenset(
    """
    ate went saw gave took wrote ran began drank drove knew came became rose spoke broke chose froze stole woke
    wore tore swore grew threw flew drew blew fell forgot forgave hid rode rang sang sank shook strove swam
    """.split()
)
NEGATIONS = frozenset("not no never none nobody nothing neither nor nowhere without non".split())
# English prefixes that negate the word they are put before (*asynchronous*, *unsafe*, *illegal*, *nonblocking*)
NEGATING_PREFIXES = ("a", "an", "un", "in", "im", "il", "ir", "non", "non-", "dis", "anti", "counter")
# prepositions, comparison and coordination: kept in order; a replacement rejects
RELATIONAL = frozenset(
    """
    to from into onto than before after above below over under against toward towards between
    versus vs via within inside outside up down off out per by for with on in at of about across
    through during since until behind beyond beside near and or but nor regarding concerning then
    """.split()
)
# the grammar words a typing slip may hide (*explian*, *beetween*, *teh*): function and relational words
LONG_FUNCTION_WORDS = tuple(sorted(w for w in FUNCTION_WORDS | RELATIONAL if len(w) >= 4 and w.isalpha()))
SHORT_FUNCTION_WORDS = tuple(sorted(w for w in FUNCTION_WORDS | RELATIONAL if 3 <= len(w) <= 4 and w.isalpha()))
# prepositions that introduce a topic (*books on X* = *books about X*): compared as one
TOPIC_RELATIONS = {"on": "about", "regarding": "about", "concerning": "about"}
# "in simple terms" / "in a clear way" says what the adverb says (*simply*, *clearly*)
MANNER_PHRASE = re.compile(r"\bin\s+(?:an?\s+)?([a-z]+)\s+(?:terms|words|language|way|manner|fashion)\b", re.I)
QUESTION_WORDS = {"what": "what", "which": "what", "who": "who", "whom": "who", "whose": "whose",
                   "when": "when", "where": "where", "why": "why", "how": "how"}
# request frames that only introduce the topic: "tell me about X", "give me an overview of X",
# "what does X mean"; removed before the words are compared (grammar, no topic words)
REQUEST_FRAMES = (
    re.compile(
        r"(?:^|(?<=[.!?:]\s))(?:(?:please|kindly)\s+)?(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?)?"
        r"(?:(?:tell|give|show)\s+me|i(?:'d|\s+would)\s+like\s+to\s+know|i\s+want\s+to\s+know|"
        r"(?:what\s+)?do\s+you\s+know)\s+(?:(?:an?|the|some)\s+(?:overview|explanation|description|"
        r"introduction|rundown)\s+)?(?:about|of|on|regarding)\s+",
        re.I,
    ),
    re.compile(r"\bwhat\s+(?:does|do)\s+([^.?!\n]{1,200}?)\s+mean(?=(?:\s*,\s*please)?(?:\s*[?.!]|\s*$))", re.I),
    re.compile(r"\bwhat\s+is\s+(?:meant\s+by|the\s+meaning\s+of)\s+(?=\S)", re.I),
)
# code named in a request (*this code*, *the following SQL*, *the snippet below*, *this:* before pasted code)
_CODE_NAMED = (r"(?:(?:this|that|the\s+following|the\s+above|my|the)\s+(?:[A-Za-z+#]+\s+)?(?:code|snippet|function|script|"
               r"query|program|method|class|loop|regex|regular\s+expression|pattern|command|sql|statement|formula|"
               r"one-liner)s?(?:\s+(?:below|above))?|this(?=\s*[?:.]|\s*$|\s*`))")
# the counts a request for a list may give (*list five X*; *a few* is *some* by then)
_COUNT_WORDS = r"some|all|two|three|four|five|six|seven|eight|nine|ten|several"
# request frames that say "explain" in other words (*help me understand*, *explain to me*), and question
# forms that ask what a shorter question word asks (*what makes X red* = *why is X red*, *what is the number
# of* = *how many*, *what is the way to* = *how to*): rewritten before the words are compared
# a request to work a quantity out, at a sentence's or a line's start: *can you work out*, *please calculate*
_CALCULATE = (r"(?:^|(?<=[.!?:]\s)|(?<=\n))(?:please\s+)?(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?)?"
              r"(?:help\s+me\s+)?(?:calculate|compute|work\s+out|figure\s+out)\s+")
REWORDED_FRAMES = (
    # asking for a definition is asking to explain a term: *define X*, *what is the definition of X*, *explain
    # what X means* (as *what does X mean* is, below); *define* opening a short request whose term is no
    # programming construct (*define a function that ...* asks for code)
    (re.compile(r"(?:^|(?<=[.!?:]\s))(?:(?:please|kindly)\s+)?(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?)?"
                r"define\s+(?!(?:an?\s+|the\s+|my\s+)?(?:function|method|class|variable|constant|macro|type|struct|"
                r"interface|enum|route|endpoint|schema|table|column|field|property|object|rule|alias)s?\b)"
                r"(?=(?:[^\s.?!]+\s+){0,4}[^\s.?!]+(?:\s+for\s+me)?\s*(?:[.?!]|$))", re.I), "explain "),
    (re.compile(r"\b(?:what\s+is|give\s+me|tell\s+me)\s+the\s+definition\s+of\b", re.I), "explain"),
    (re.compile(r"\bexplain\s+what\s+([^.?!\n]{1,120}?)\s+means\b", re.I), r"explain \1"),
    (re.compile(r"\bexplain\s+the\s+(?:term|word|phrase|expression)\s+(?=\S)", re.I), "explain "),
    (re.compile(r"\b(?:help\s+me(?:\s+to)?|i(?:'d|\s+would)\s+like\s+to|i\s+(?:want|need)\s+to|"
                r"i(?:'m|\s+am)\s+trying\s+to)\s+(?:better\s+)?understand\b", re.I), "explain"),
    # an indirect question's frame (*I was wondering if you could explain X*, *I'm curious how X works*)
    (re.compile(r"(?:^|(?<=[.!?:,]\s)|(?<=\bbut\s))i(?:'m|\s+am|\s+was|)\s+(?:just\s+|really\s+|also\s+)?(?:wondering|curious)"
                r"(?:\s+(?:to\s+know\s+)?(?:if|whether|about)\b)?(?:\s+you\s+(?:could|can|would|might)\b)?", re.I), ""),
    # an indirect question put as a wish to know: *I'd like to know whether X* / *I want to check if X* / *I'm trying to
    # find out how many X* ask *X?* (the question word stays; *whether* and *if* go, as above)
    (re.compile(r"(?:^|(?<=[.!?:,]\s)|(?<=\band\s))(?:i(?:'d|\s+would)\s+like\s+to|i\s+(?:want|need)\s+to|"
                r"i(?:'m|\s+am)\s+trying\s+to)\s+(?:know|find\s+out|learn|discover|check|figure\s+out|work\s+out)\s+"
                r"(?:(?:whether|if)\s+|(?=(?:how|what|when|where|which|who|why)\b))", re.I), ""),
    # *can you tell me if X*, *could you tell me how to X*: the question itself
    # (not *what*: *tell me what X means* is read below, as *what does X mean*)
    (re.compile(r"(?:^|(?<=[.!?:,]\s))(?:please\s+)?(?:(?:can|could|would|will)\s+you\s+(?:(?:please|just|quickly)\s+)*"
                r"(?:tell|let)\s+me\s+(?:know\s+)?|do\s+you\s+(?:happen\s+to\s+)?know\s+)"
                r"(?:(?:whether|if)\s+|(?=(?:how|when|where|which|who|why)\b))", re.I), ""),
    # a doubt that frames a question: *I'm not sure how to X*, *not sure whether to X*, *no idea what X is* ask *how
    # to X*, *whether to X*, *what X is* (not *I don't know how to X*: *I don't know how to swim* tells an ability)
    (re.compile(r"\b(?:(?:i(?:'m|\s+am)|im)\s+(?:just\s+|really\s+)?)?(?:not\s+(?:really\s+)?sure|unsure)\s+"
                r"(?=(?:how|what|which|where|when|why|who|whether|if)\b)", re.I), ""),
    (re.compile(r"\b(?:i\s+have\s+)?no\s+idea\s+(?=(?:how|what|which|where|when|why|who|whether|if)\b)", re.I), ""),
    # *I need you to X*, *I'd like you to X* ask *please X* (*I want you to* is function words already)
    (re.compile(r"(?:^|(?<=[.!?:]\s))(?:so\s+)?i(?:\s+(?:really\s+)?need|'d\s+like|\s+would\s+like)\s+you\s+to\s+(?=[a-z])",
                re.I), "please "),
    # converting a quantity asks how many of the other unit it is: *convert 350 grams to ounces* = *what is 350 grams in
    # ounces* = *how many ounces is 350 grams*
    (re.compile(r"(?:^|(?<=[.!?:]\s))(?:please\s+)?(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?|how\s+(?:do|can|would|should)\s+"
                r"(?:i|you|we|one)\s+)?convert\s+"
                r"(\d(?:[^.?!\n]|\.\d){0,60}?)\s+(?:to|into)\s+([^\d.?!\n][^.?!\n]{0,60}?)(?=\s*[?.!]|\s*$)", re.I), r"how many \2 is \1"),
    (re.compile(r"(?:^|(?<=[.!?:]\s))what(?:\s+is|'s)\s+(\d(?:[^.?!\n]|\.\d){0,60}?)\s+in\s+([^\d.?!\n][^.?!\n]{0,60}?)(?=\s*[?.!]|\s*$)",
                re.I), r"how many \2 is \1"),
    # a cause asked after a form of *be*: *could it be caused by X*, *due to X*, *because of X* = *could it be from X*
    (re.compile(r"\b(be|is|are|was|were|been)\s+(?:caused\s+by|due\s+to|because\s+of|the\s+result\s+of)\b", re.I),
     r"\1 from"),
    # *would you mind writing X* asks *write X*, as *please* does
    (re.compile(r"\b(?:would|do)\s+you\s+mind\s+(?=[a-z]+ing\b)", re.I), "please "),
    # *I'd appreciate it if you could X* asks *please X*; *are you able to X*, *would you be able to X* ask *can you X*
    (re.compile(r"\bi(?:'d|\s+would)\s+(?:really\s+|greatly\s+)?appreciate\s+it\s+if\s+you\s+(?:could|can|would)\s+"
                r"(?:please\s+)?", re.I), "please "),
    (re.compile(r"\b(?:are|would)\s+you\s+(?:be\s+)?able\s+to\b", re.I), "can you"),
    # *could you just quickly tell me X* asks *could you tell me X*: the haste is the asker's, the answer is one fact
    (re.compile(r"\b((?:can|could|would|will)\s+you\s+(?:please\s+)?)(?:just\s+)?quickly\s+(?=(?:tell|remind)\s+me\b)",
                re.I), r"\1"),
    # *(can you) tell me what X means* asks *what does X mean* (below: *explain X*)
    (re.compile(r"(?:\b(?:can|could|would|will)\s+you\s+(?:please\s+)?)?\btell\s+me\s+what\s+([^.?!\n]{1,200}?)\s+means\b",
                re.I), r"what does \1 mean"),
    (re.compile(r"\bexplain\s+to\s+me\b", re.I), "explain"),
    (re.compile(r"\b(explain\b[^.?!\n]{1,200}?)\s+to\s+me\b", re.I), r"\1"),
    (re.compile(r"\bwhat\s+makes\s+", re.I), "why is "),
    (re.compile(r"\bwhat\s+causes\s+", re.I), "why "),
    # *why do X happen* asks what causes X: the verb of happening adds nothing (present tense, as *what causes*)
    (re.compile(r"\bwhy\s+(?:do|does)\s+([^.?!\n]{1,120}?)\s+(?:happen|occur)(?=\s*[?.!]|\s*$)", re.I), r"why \1"),
    (re.compile(r"\b(?:explain|describe)\s+the\s+meaning\s+of\b", re.I), "explain"),
    (re.compile(r"\bwhat\s+made\s+", re.I), "why was "),
    (re.compile(r"\bhow\s+(?:does|do|is|are)\s+([^.?!\n]{1,120}?)\s+differ(?:ent)?\s+from\b", re.I),
     r"what is the difference between \1 and"),
    (re.compile(r"\bhow\s+(?:do|are)\s+([^.?!\n]{1,120}?\s+and\s+[^.?!\n]{1,120}?)\s+differ(?:ent)?(?=\s*[.?!]|\s*$)", re.I),
     r"what is the difference between \1"),
    (re.compile(r"\bwalk\s+me\s+through\b", re.I), "explain"),
    (re.compile(r"\bbreak\s+down\s+(?=" + _CODE_NAMED + r")", re.I), "explain "),
    # what a pattern matches is what it does: *what does the regex X match* asks *what does the regex X do*
    (re.compile(r"\b(what\s+(?:does|do)\s+(?:(?:(?:the|this|that)\s+)?(?:regex|regular\s+expression|pattern)"
                r"(?:\s+`[^`\n]{1,200}`|\s+[^\s.?!]{1,200})?|`[^`\n]{1,200}`)\s+)match(?=\s*[?.!]|\s*$)", re.I), r"\1do"),
    # asking whether code has a bug asks what is wrong with it (*is there a bug in X*, *can you spot the problem in
    # X*, *does X contain an error*)
    (re.compile(r"\b(?:is\s+there\s+(?:a|any)|(?:can|could)\s+you\s+(?:spot|find|see)\s+(?:the|a|any))\s+"
                r"(?:bug|problem|error|issue|mistake)s?\s+in\s+(?=" + _CODE_NAMED + r")", re.I), "what is wrong with "),
    (re.compile(r"\bdoes\s+(" + _CODE_NAMED + r")\s+(?:contain|have)\s+(?:a|an|any)\s+(?:bug|problem|error|issue|mistake)s?\b",
                re.I), r"what is wrong with \1"),
    # a whole request of *A vs B* asks for the difference
    (re.compile(r"^\s*([^,.?!:\n]{1,80}?)\s+(?:vs\.?|versus)\s+([^,.?!:\n]{1,80}?)\s*[?.!]*\s*$", re.I),
     r"what is the difference between \1 and \2"),
    # *list the five largest X*, *give me a list of the X* and *identify the longest X* ask *what are*, *which is*,
    # asked as a request or not (*could you list the X*); *name* only before a count (*name three X*, *name some X*:
    # *name the X* may ask to give it a name)
    (re.compile(r"(?:^|(?<=[.!?:]\s))(?:please\s+)?(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?)?"
                r"(?:(?:list|identify|(?:give\s+me|provide|make|write(?:\s+me)?)\s+a\s+list\s+of)\s+"
                r"(?=(?:the|\d+|" + _COUNT_WORDS + r")\b)|name\s+(?=(?:\d+|" + _COUNT_WORDS + r")\b))", re.I),
     "what are "),
    # *name the X-est Y* asks *what is the X-est Y* (a quiz's *name*; *name the X* alone may ask to give it a name)
    (re.compile(r"(?:^|(?<=[.!?:]\s))(?:please\s+)?(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?)?"
                r"name\s+(?=the\s+(?:[a-z]+est|most|least|first|last|only)\b)", re.I), "what is "),
    # *what exactly is X*, *how exactly does X work*, *what is X exactly*: the insistence adds nothing to the question
    (re.compile(r"\b(what|which|who|how|why|where|when)\s+exactly\b", re.I), r"\1"),
    (re.compile(r"(?<=\w)\s+exactly(?=\s*\?)", re.I), ""),
    # *how do you say X in French* is *translate X into French*
    (re.compile(r"\bhow\s+(?:do|would|can)\s+(?:you|i|one)\s+say\s+([^\n]{1,200}?)\s+in\s+(?=[^\W\d_]+\s*[?.!]*\s*$)",
                re.I), r"translate \1 into "),
    (re.compile(r"\bwhat(?:\s+is|\s+are|'s)\s+the\s+number\s+of\b", re.I), "how many"),
    # a price asked as *how much*: *how much does it cost to X* = *what is the cost to X*, *how much does X cost* =
    # *what is the cost of X* (present tense only)
    (re.compile(r"\bhow\s+much\s+(?:does|do)\s+it\s+cost\b", re.I), "what is the cost"),
    (re.compile(r"\bhow\s+much\s+(?:does|do)\s+([^.?!\n]{1,80}?)\s+cost(?=\s*[?.!]|\s*$)", re.I), r"what is the cost of \1"),
    # an abbreviation's expansion: *what is X short for* asks *what does X stand for* (not what X means: *what is
    # Alex short for*)
    (re.compile(r"\bwhat(?:\s+is|'s)\s+([^.?!\n]{1,80}?)\s+(?:short|an\s+abbreviation|an\s+acronym)\s+for\b", re.I),
     r"what does \1 stand for"),
    # a place's population and the distance between two places, asked as *how many* and *how far*
    (re.compile(r"\bhow\s+many\s+(?:people|inhabitants|residents)\s+live\s+in\b", re.I), "what is the population of"),
    (re.compile(r"\bhow\s+far\s+(?:is|are)\s+([^,.?!:\n]{1,80}?)\s+from\s+(?=[^,.?!:\n]{1,80}?\s*(?:[?.!]|$))", re.I),
     r"what is the distance between \1 and "),
    # asking to work a quantity out asks what it is: *can you work out 7% of 180* = *calculate 7% of 180* = *what is 7%
    # of 180*, *calculate how many X* = *how many X* (not *work out at home*: a determiner, number or question word next)
    (re.compile(_CALCULATE + r"(?=(?:how|what|when|which|whether)\b)", re.I), ""),
    (re.compile(_CALCULATE + r"(?=(?:the|an?|my|our|your|this|that)\b|[$£€\d])", re.I), "what is "),
    # the command that does X is how to do X: *what command do I use to undo a commit*, *which command lets me list pods*
    (re.compile(r"\bwhat\s+command\s+(?:do|should|can)\s+(?:i|you|we)\s+(?:use|run|type)\s+to\b", re.I),
     "how do I"),
    (re.compile(r"\b(?:what|which)\s+command\s+(?:lets|allows)\s+(?:me|you|us)(?:\s+to)?\b", re.I), "how do I"),
    # a comparative against all the others is the superlative: *which river is longer than all the others* = *which river
    # is the longest*, *more X than any other* = *the most X*
    (re.compile(r"\b([a-z]{2,}?)er\s+than\s+(?:all|any|every)\s+(?:of\s+)?(?:the\s+)?(?:others?|other\s+ones?|the\s+rest|"
                r"others?\s+\w+s?)\b", re.I), r"the \1est"),
    (re.compile(r"\bmore\s+([a-z]+)\s+than\s+(?:all|any|every)\s+(?:of\s+)?(?:the\s+)?(?:others?|other\s+ones?|the\s+rest)\b",
                re.I), r"the most \1"),
    # *how much time does X take* asks *how long*
    (re.compile(r"\bhow\s+much\s+time\b", re.I), "how long"),
    # the steps to do X are how to do X, asked or requested
    (re.compile(r"\b(?:what\s+are|give\s+me|tell\s+me|show\s+me|list)\s+the\s+steps\s+(?:to|for)\s+(?=[a-z]+)", re.I),
     "how to "),
    # (a *good*, *proper* or *right* way, a *procedure*, *process* or *method*, asks no more than a way: a *best*, *easy*
    # or *quick* way adds a constraint)
    (re.compile(r"\b(?:what(?:\s+is|'s)\s+(?:the|a)\s+(?:(?:good|proper|right|correct|usual|recommended)\s+)?"
                r"(?:way|procedure|process|method)|what\s+are\s+(?:some|the)\s+ways|"
                r"is\s+there\s+(?:a|any)\s+way)\s+to\b", re.I), "how to"),
)
# a text that shows code names it in many ways (*this code*, *the snippet below*, *the following Python
# function*): one reference, so that only the words around it are compared
CODE_REFERENCE = re.compile(
    r"\b(?:the\s+following|the\s+above|this|these|that|my|the)\s+((?:[A-Za-z+#]+\s+)?)"
    r"(?:code|snippet|program|script|function|query|example|command|regex|regular\s+expression|pattern|piece\s+of\s+code)"
    r"(?:\s+(?:below|above|here))?\b", re.I)
# the kind of code a text pastes without quotes, named after a determiner (*this SQL*, *the query*, *this regex*):
# one word for it where the text shows code, so that *explain this SQL: X* and *what does this query do? X* compare
CODE_KIND = re.compile(r"\b(this|that|the|these|those|my)\s+(?:sql|query|statement|command|regex|regular\s+expression|"
                       r"pattern|formula|snippet|script|code|expression|one-liner)\b", re.I)
CODE_MARKS = frozenset("=();{}[]^$\\|<>*")  # characters of code, not of prose
CODE_FOLLOWS = re.compile(r"\s*[:?.]?\s*`|\s+[a-z]+\s*[:?.]\s*`", re.I)  # *the command `ls`*, *this regex does: `x`*
# sentence punctuation, with at most one parenthesis (*etc.)*, *).*): prose; *()* and *))* are code
SENTENCE_PUNCTUATION = re.compile(r"^[.,;:!?'\"\-–—…]*[()]?[.,;:!?'\"\-–—…]*$")
# social formulas (greetings, thanks, sign-offs, apologies): a sentence made only of these and function
# words, at the start or end of a text, is dropped (*Hey, quick question:*, *Thanks in advance!*)
PHATIC = frozenset(
    """
    hi hello hey greetings morning afternoon evening day night everyone everybody folks guys all there
    thanks thank thx appreciate appreciated appreciation grateful advance much lot lots ton million
    regards best cheers sincerely sorry apologies apologize bother hope well doing fine great good nice
    help assistance question quick many time mind asking ask lol having um umm uh erm hmm
    love advice going something silly stupid dumb wondering
    long message messages rambling essay
    """.split()
)
# a sentence is a formula only with one of these (*Good night.* and *Not well.* are not formulas)
PHATIC_CORE = frozenset(
    "hi hello hey greetings morning afternoon evening thanks thank thx appreciate appreciated grateful regards "
    "cheers sincerely sorry apologies question asking hope advice".split()
)
# the passive voice: a form of *be*, then (after at most one adverb or *not*) a past participle
BE_FORMS = frozenset("is are was were be been being am".split())
SENTENCE_ENDS = frozenset(".!?;:")
# participles that end neither in -ed nor in -en/-wn (a closed class of English irregular verbs)
IRREGULAR_PARTICIPLES = frozenset(
    """
    made done built sent set put kept held found told sold paid bought brought thought taught caught run read
    left lost met led fed spent won hit cut split shut spread cast sung begun drunk swum stuck struck hung
    dealt felt heard meant bent lent slept swept burnt learnt spelt spilt dug shot fought sought bound wound
    stung flung clung slung strung wrung swung spun stunk shrunk sunk sprung rung got sat lit stood understood hurt
    laid said bled bred fled sped slid spat shone wept crept knelt leapt dreamt dwelt smelt ground quit rid bet
    """.split()
)
NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30,
    "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100,
    "thousand": 1000, "million": 10**6, "billion": 10**9, "dozen": 12, "half": 0.5, "twice": 2,
    "single": 1, "double": 2, "triple": 3,
}
_CLIPPED_UNITS = {"yr": "years", "min": "minutes", "hr": "hours", "sec": "seconds", "oz": "ounces", "lb": "pounds",
                  "tsp": "teaspoons", "tbsp": "tablespoons", "qt": "quarts", "gal": "gallons", "ft": "feet", "yd": "yards"}
_ORDINAL_WORDS = {"1st": "first", "2nd": "second", "3rd": "third", "4th": "fourth", "5th": "fifth", "6th": "sixth",
                  "7th": "seventh", "8th": "eighth", "9th": "ninth", "10th": "tenth", "11th": "eleventh", "12th": "twelfth"}
# ordinal words whose value the digits spell (from 13: the smaller ones are read as words, above)
_ORDINAL_STEMS = {"first": 1, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9,
                  "thirteenth": 13, "fourteenth": 14, "fifteenth": 15, "sixteenth": 16, "seventeenth": 17,
                  "eighteenth": 18, "nineteenth": 19, "twentieth": 20, "thirtieth": 30, "fortieth": 40, "fiftieth": 50,
                  "sixtieth": 60, "seventieth": 70, "eightieth": 80, "ninetieth": 90, "hundredth": 100}


def _ordinal_digits(m: re.Match[str]) -> str:
    """An ordinal in words as digits (*nineteenth* = *19th*, *twenty-first* = *21st*); one below 13 stays a word."""
    value = _ORDINAL_STEMS[m.group(2).lower()] + (NUMBER_WORDS[m.group(1).lower()] if m.group(1) else 0)
    if value < 13:
        return m.group(0)
    suffix = "th" if value % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(value % 10, "th")
    return f"{value}{suffix}"


CONTRACTIONS = ((re.compile(r"\bwon't\b", re.I), "will not"), (re.compile(r"\bcan't\b", re.I), "can not"),
                 (re.compile(r"\bcannot\b", re.I), "can not"), (re.compile(r"n't\b", re.I), " not"),
                 (re.compile(r"(?<=\d)\s*per\s?cent(?:age)?\b", re.I), "%"),  # *15 percent* = *15%*, glued
                 # not after a number: a word (*what percentage of X* is no formula with a % operator in it)
                 (re.compile(r"\bper\s?cent(?:age)?\b", re.I), "percent"),
                 # the same, typed without the apostrophe: *whats*, *dont*, *isnt*
                 (re.compile(r"\b(what|how|who|where|when|that|there)s\b", re.I), r"\1 is"),
                 (re.compile(r"\b(do|does|did|is|are|was|were|could|should|would|has|have|had)nt\b", re.I), r"\1 not"),
                 (re.compile(r"\bcant\b", re.I), "can not"), (re.compile(r"\bwont\b", re.I), "will not"),
                 # (lower case or a capital first: *IM* in a text with lower case letters is an acronym)
                 (re.compile(r"\b[Ii]m\b"), "I am"), (re.compile(r"\b[Ii]ve\b"), "I have"),
                 (re.compile(r"\b([Yy]ou|[Tt]hey)re\b"), r"\1 are"), (re.compile(r"\b([Yy]ou|[Tt]hey)ve\b"), r"\1 have"),
                 # chat spellings of function words (a closed class): *can u*, *pls*, *thx*, *gonna*
                 (re.compile(r"\b(can|could|will|would|do|did|are|have|thank|if|should)\s+u\b(?![-'.,])(?!\s+(?:and|or)\b)", re.I),
                  r"\1 you"),
                 (re.compile(r"\bur(?=\s+(?:gonna|going|not|so|too|very|welcome|right|wrong|a|an|the|\w+ing)\b)"), "you are"),
                 (re.compile(r"\bur\b"), "your"), (re.compile(r"\btryna\b", re.I), "trying to"),
                 (re.compile(r"\bgotta\b", re.I), "have to"), (re.compile(r"\blemme\b", re.I), "let me"),
                 (re.compile(r"\bgimme\b", re.I), "give me"), (re.compile(r"\btho\b", re.I), "though"),
                 (re.compile(r"\b(?:b/c|cuz|coz)(?!\w)", re.I), "because"), (re.compile(r"\bw/o(?!\w)", re.I), "without"),
                 (re.compile(r"\bw/(?=\s|$)", re.I), "with "),  # *fried rice w/ egg*
                 (re.compile(r"\bppl\b", re.I), "people"), (re.compile(r"\basap\b", re.I), "as soon as possible"), (re.compile(r"\babt\b"), "about"),
                 # chat asides that carry no request (*tbh*, *ngl*, *lol* inside a sentence)
                 (re.compile(r",?\s*\b(?:tbh|tbf|ngl|fwiw|btw)\b,?", re.I), ""),
                 # a bound before a number or an amount: *less than $6,000* = *under $6,000*, *more than 5* = *over 5*
                 (re.compile(r"\b(?:for\s+)?(?:less|fewer)\s+than\s+(?=[$£€¥]?\d)", re.I), "under "),
                 (re.compile(r"\b(?:for\s+)?more\s+than\s+(?=[$£€¥]?\d)", re.I), "over "),
                 (re.compile(r"\bbelow\s+(?=[$£€¥]?\d)", re.I), "under "), (re.compile(r"\babove\s+(?=[$£€¥]?\d)", re.I), "over "),
                 # small ordinals in digits (*my 1st time*, *the 3rd floor*) as the words they are read as
                 (re.compile(r"\b(1st|2nd|3rd|[4-9]th|10th|11th|12th)\b", re.I), lambda m: _ORDINAL_WORDS[m.group(1).lower()]),
                 # larger ordinals in words (*the nineteenth century*, *the twenty-sixth President*) as digits; not a
                 # compound ending in *second* (*a thirty-second ad* is 30 seconds long)
                 (re.compile(r"\b(?:(twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)-)?(" + "|".join(_ORDINAL_STEMS)
                             + r")\b", re.I), _ordinal_digits),
                 # a time of day spelt with or without its minutes and the dots: *8:00 pm* = *8 pm*, *9 a.m.* = *9 am*
                 (re.compile(r"\b(\d{1,2}(?::[0-5]\d)?)\s*([ap])\.m\.(?=\s|$|[,;:!?)])", re.I), r"\1 \2m"),
                 (re.compile(r"\b(\d{1,2}):00\s*([ap]m)\b", re.I), r"\1 \2"),
                 # a number spelt with a hyphen: *thirty-six* = *36*; a number word before a unit in a compound:
                 # *a twenty-minute ride* = *a 20-minute ride*, *my eighty-five-year-old mother* (not *two-way*, *one-off*)
                 (re.compile(r"\b(twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)-(one|two|three|four|five|six|seven|"
                             r"eight|nine)\b", re.I),
                  lambda m: str(NUMBER_WORDS[m.group(1).lower()] + NUMBER_WORDS[m.group(2).lower()])),
                 (re.compile(r"\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|"
                             r"fifty|sixty|seventy|eighty|ninety|hundred)-(?=(?:second|minute|hour|day|week|month|year|mile|"
                             r"kilometer|kilometre|km|pound|kilo|kilogram|gram|ounce|inch|foot|meter|metre|litre|liter|cup|"
                             r"gallon|page|word|step|person|seat|bedroom|story|storey)s?\b)", re.I),
                  lambda m: f"{NUMBER_WORDS[m.group(1).lower()]}-"),
                 # clipped units after a number (*2 yrs*, *10 mins*, *6 oz*, *3 lbs*, *2 tbsp*)
                 (re.compile(r"(?<=\d)(\s*)(" + "|".join(_CLIPPED_UNITS) + r")s?\b", re.I),
                  lambda m: m.group(1) + _CLIPPED_UNITS[m.group(2).lower()]),
                 # *till* the preposition (not *the till*)
                 (re.compile(r"(?<!\bthe\s)(?<!\ba\s)(?<!\bmy\s)\btill\b", re.I), "until"),
                 (re.compile(r"\bpl[sz]\b", re.I), "please"), (re.compile(r"\bthx\b", re.I), "thanks"),
                 (re.compile(r"\bty(?:sm|vm)?\b"), "thanks"),  # lower case only: *Ty* is a name
                 (re.compile(r"\bthru\b", re.I), "through"), (re.compile(r"\bgonna\b", re.I), "going to"),
                 (re.compile(r"\bwanna\b", re.I), "want to"), (re.compile(r"\bquick\s+q\b", re.I), "quick question"),
                 # *a few* says *some*
                 (re.compile(r"\ba\s+few\b", re.I), "some"),
                 # the target language of a translation, *into* or *to* (outside quotes: material stays)
                 (re.compile(r"\b(translat\w*\b[^.?!:\n\"'`]{0,60}?)\binto\b", re.I), r"\1to"),
                 # a length or a format as a count of parts: *as one sentence* = *in one sentence*, *3 bullet points*
                 # = *3 bullets*
                 (re.compile(r"\bas\s+(?=(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|a\s+single)\s+(?:short\s+)?"
                             r"(?:sentence|paragraph|bullet|line|word|point|tweet)s?\b)", re.I), "in "),
                 (re.compile(r"\bbullet\s+point(s?)\b", re.I), r"bullet\1"))

# --- the grammar of questions -----------------------------------------------------------------

# personal pronouns: people whose roles a reordering can swap (*I owe my sister* / *my sister owes me*)
# (subject and object forms are one person: *I owe her* / *she owes me*; a possessive is another word)
PERSONS = {"i": "1", "me": "1", "my": "1's", "mine": "1's", "we": "1pl", "us": "1pl", "our": "1pl's",
            "ours": "1pl's", "he": "3m", "him": "3m", "his": "3m's", "she": "3f", "her": "3f", "hers": "3f's",
            "they": "3pl", "them": "3pl", "their": "3pl's", "theirs": "3pl's"}
POSSESSIVE_PRONOUNS = frozenset("my your our his her their".split())
DO_FORMS = frozenset("do does did".split())
AUXILIARIES = frozenset("is are was were be am has have had will would shall should can could may might must".split())
# the verbs that open a question or follow its question word (*can I*, *how do you*, *what should we*)
QUESTION_LEADS = AUXILIARIES | DO_FORMS
SUBJECT_QUESTIONS = frozenset("who what which".split())
TENSES = {"is": "present", "are": "present", "am": "present", "do": "present", "does": "present",
           "has": "present", "have": "present", "was": "past", "were": "past", "did": "past", "had": "past",
           "will": "future", "shall": "future"}
MODALS = {"can": "possible", "could": "possible", "may": "possible", "might": "possible", "should": "advice",
           "ought": "advice", "must": "obligation", "would": "conditional"}
OBLIGED = frozenset("have has had need needs required".split())  # before *to*: *do I have to*, *need to*

# --- the tense of statements (*I lost my job* / *I will lose my job*) ------------------------------

# personal pronouns in subject form: the finite verb after one carries the statement's tense
SUBJECT_PRONOUNS = frozenset("i we you he she they".split())
# a clitic after an apostrophe, as the auxiliary it stands for (*I'm*, *we'll*, *they've*; *'s* and *'d*
# are two auxiliaries each, so they read as the one that marks no tense here)
CLITICS = {"m": "am", "ll": "will", "ve": "have", "re": "are", "s": "is", "d": "would"}
# adverbs that stand between a subject and its verb (*I just lost*, *we already paid*)
MID_ADVERBS = frozenset("just already recently also really actually finally accidentally still probably definitely "
                        "soon ever only even never not".split())
# openers of a clause whose tense is hypothetical, not a time (*if I lost it*, *when I leave*)
CONDITIONALS = frozenset("if when whenever unless once whether suppose supposing case".split())
# openers of a subordinate clause that sets a condition or a reason for the main one (*if A, B* is not *if B, A*);
# (*when* too: as a question word its clause is the whole question in both texts); words that are also
# prepositions (*after*, *before*) are left out, *while* and *once* kept (*for a while*, *at once* open no clause
# that both texts could swap)
SUBORDINATORS = frozenset("if unless because although though when whenever while once whereas provided".split())
# words that may open a question before its verb without being part of its clause (*So is X a Y?*, *And are X Y?*)
DISCOURSE_OPENERS = frozenset("so and but or then well now also yet".split())
# adjectives that say a modality before *to*, *that* or *for* (*is it possible to*, *is it okay for me to*)
MODAL_ADJECTIVES = {"possible": "possible", "okay": "possible", "ok": "possible", "alright": "possible",
                    "acceptable": "possible", "permissible": "possible", "fine": "possible", "advisable": "advice",
                    "necessary": "obligation", "required": "obligation", "mandatory": "obligation",
                    "compulsory": "obligation", "obligatory": "obligation"}
# adjectives that ask for advice only in *it is ... to* (*is it better to X or Y*; not *is X better for Y*)
JUDGING_ADJECTIVES = {"better": "advice", "best": "advice", "wise": "advice", "smart": "advice", "smarter": "advice"}
# words a speaker may put before a sentence without changing it (*ok so is X a Y?*, *hmm, is X a Y?*)
INTERJECTIONS = frozenset("ok okay alright yeah yes yep hmm um umm uh oh hey hi hello pls plz please".split())
# words that open an adverbial clause or phrase, which may move from a sentence's front to its end (*in June,
# what is X* / *what is X in June*): prepositions and subordinators, not coordination
ADVERBIAL_OPENERS = (RELATIONAL | SUBORDINATORS | {"as"}) - frozenset("and or but nor then".split())
# verbs of stance, whose past is politeness rather than time (*I was wondering*, *I wanted to ask*, *I thought*)
STANCE_VERBS = frozenset("want wonder think hope wish need like love feel guess suppose mean ask try plan intend".split())
# what a request asks the one addressed to do for the asker (*could you please show me how ...*)
REQUEST_VERBS = frozenset("show tell help explain give teach walk guide send write let recommend suggest list fix "
                          "check find translate summarise summarize describe create draft review rewrite".split())
