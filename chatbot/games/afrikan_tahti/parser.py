"""Afrikan Tähti: free Finnish or English text -> action notations (vocabulary.md §1-§6).

The parser matches only against the actions legal for the speaker now (``ctx.legal``) and reads the
board situation from the speaker's view (``ctx.view``: phase, pawns, the move in progress). The
phase decides what a command means (vocabulary.md §5): "heitä" is the movement roll when declaring
and the release roll when captured; "mene Kongoon" declares the roll (and moves to Congo at once if
the die allows it) before the roll and picks the destination after it; "käännä nopalla" is the flip
roll; "en käännä" after a move ends the turn.

Reading order:

1. Places (:data:`PLACE_FI`, :data:`PLACE_EN`): the board's own names in every Finnish case and in
   English, matched from tables (Voikko does not know Ocomba or Kandjama), and :data:`WORDS`, the
   verbs and nouns per concept and language.
2. Board geometry the texts need: the paths of the move in progress, the places ahead of a dot.
3. :class:`Reading`: what a message says, from the items of :meth:`Lexicon.scan`: the concepts said
   and denied, the places named (destinations, "via" places, "from" places) and the step counts.
4. :class:`AfrikanTahtiParser`: one method per phase, each turning a reading into a ``ParseResult``.
   Phases this module does not know (the Retkikunnat expansion adds some) give ``NotUnderstood``,
   so the buttons still work there.

Reason codes in ``NotLegal`` are the engine's, with its parameters (``not_an_airport``,
``no_such_route``, ``cannot_afford``, ``not_a_port``, ``no_such_leg``, ``at_sea``, ``no_token``,
``already_flipped``, ``can_afford_flip``, ``can_afford_fare``, ``wrong_destination``,
``not_reachable``, ``not_on_path``, ``not_a_place``, ``not_a_start``, ``wrong_phase`` (with
``phase``), ``not_your_turn``, ``game_over``), worked out from the view the way the engine would.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from chatbot.core.nlp import NEG, QUESTION, Item, Lemmatizer, Lexicon, name_forms, tokens
from chatbot.core.parsing import Ambiguous, NotLegal, NotUnderstood, ParseContext, Parsed, ParseResult
from engines.afrikan_tahti.board import (
    AIR,
    AIRPORTS,
    CAPETOWN,
    CODE,
    GOALS,
    LAND,
    LEGS,
    PLACE,
    PLACE_SET,
    PLACES,
    PORTS,
    land_paths,
    node_of,
)
from engines.afrikan_tahti.model import AIR_FARE, FLIP_PRICE, SEA_FARE, roll_only_when_broke

SETUP, DECLARE, RELEASE, MOVE, AFTER_MOVE, OVER = "setup", "declare", "release", "move", "after_move", "over"

# --------------------------------------------------------------------------------------------------
# 1. Places and words
# --------------------------------------------------------------------------------------------------

# vocabulary.md §3: id | nominative | genitive | to (illative/allative) | in (inessive/adessive) |
# from (elative/ablative) | also accepted. The display forms of the Finnish catalog are these same
# columns, so a place reads the same in the bot's answers and in what players may type.
_PLACE_TABLE = """
cairo | Kairo | Kairon | Kairoon | Kairossa | Kairosta | Cairo, Cairon, Cairoon, Cairossa, Cairosta
tangier | Tanger | Tangerin | Tangeriin | Tangerissa | Tangerista | Tangier, Tangierin, Tangieriin, Tangierissa, Tangierista
addis_abeba | Addis Abeba | Addis Abeban | Addis Abebaan | Addis Abebassa | Addis Abebasta | Addis Ababa, Abeba
ain_galaka | Ain-Galaka | Ain-Galakan | Ain-Galakaan | Ain-Galakassa | Ain-Galakasta | Ain Galaka, Galaka
bahr_el_ghasal | Bahr El Ghasal | Bahr El Ghasalin | Bahr El Ghasaliin | Bahr El Ghasalissa | Bahr El Ghasalista | Bahr el Ghazal, Ghasal
canary_islands | Kanariansaaret | Kanariansaarten | Kanariansaarille | Kanariansaarilla | Kanariansaarilta | Kanariat, Kanarialle, Canary Islands
cape_guardafui | Guardafuinniemi | Guardafuinniemen | Guardafuinniemelle | Guardafuinniemellä | Guardafuinniemeltä | Cape Guardafui, Guardafui, Guardafuihin
cape_st_marie | Sainte-Marien niemi | Sainte-Marien niemen | Sainte-Marien niemelle | Sainte-Marien niemellä | Sainte-Marien niemeltä | Cape St. Marie, St. Marie, Sainte-Marie, Cape St. Marielle
cape_verde | Kap Verde | Kap Verden | Kap Verdeen | Kap Verdessä | Kap Verdestä | Cape Verde, Cape Verdeen, Kap Verdelle
capetown | Kapkaupunki | Kapkaupungin | Kapkaupunkiin | Kapkaupungissa | Kapkaupungista | Capetown, Cape Town, Capetowniin, Capetownissa
congo | Kongo | Kongon | Kongoon | Kongossa | Kongosta | Congo, Congon, Congoon, Congossa, Congosta
dar_fur | Darfur | Darfurin | Darfuriin | Darfurissa | Darfurista | Dar-Fur, Dar-Furiin, Dar-Furissa, Dar-Furista
daressalam | Dar es Salaam | Dar es Salaamin | Dar es Salaamiin | Dar es Salaamissa | Dar es Salaamista | Daressalam, Daressalamiin, Daressalamissa
dragon_mountain | Lohikäärmevuori | Lohikäärmevuoren | Lohikäärmevuorelle | Lohikäärmevuorella | Lohikäärmevuorelta | Dragon Mountain, Dragon Mountainille, Drakensberg
egypt | Egypti | Egyptin | Egyptiin | Egyptissä | Egyptistä | Egypt
gold_coast | Kultarannikko | Kultarannikon | Kultarannikolle | Kultarannikolla | Kultarannikolta | Gold Coast, Gold Coastille, Gold Coastilla
kandjama | Kandjama | Kandjaman | Kandjamaan | Kandjamassa | Kandjamasta | Kandjamalle
lake_victoria | Victorianjärvi | Victorianjärven | Victorianjärvelle | Victorianjärvellä | Victorianjärveltä | Lake Victoria, Lake Victoriaan, Viktoriajärvi, Victoria-järvi
morocco | Marokko | Marokon | Marokkoon | Marokossa | Marokosta | Morocco
mozambique | Mosambik | Mosambikin | Mosambikiin | Mosambikissa | Mosambikista | Mozambique, Mozambiqueen, Mosambiikki
ocomba | Ocomba | Ocomban | Ocombaan | Ocombassa | Ocombasta | Okomba
sahara | Sahara | Saharan | Saharaan | Saharassa | Saharasta | Saharalle
sierra_leone | Sierra Leone | Sierra Leonen | Sierra Leoneen | Sierra Leonessa | Sierra Leonesta | Sierra
slave_coast | Orjarannikko | Orjarannikon | Orjarannikolle | Orjarannikolla | Orjarannikolta | Slave Coast, Slave Coastille, Slave Coastilla
st_helena | Saint Helena | Saint Helenan | Saint Helenalle | Saint Helenalla | Saint Helenalta | St. Helena, Helena, Pyhä Helena
suakin | Suakin | Suakinin | Suakiniin | Suakinissa | Suakinista |
tamatave | Tamatave | Tamataven | Tamataveen | Tamatavessa | Tamatavesta | Toamasina
timbuktu | Timbuktu | Timbuktun | Timbuktuun | Timbuktussa | Timbuktusta | Tombouctou
tripoli | Tripoli | Tripolin | Tripoliin | Tripolissa | Tripolista |
tunis | Tunis | Tunisin | Tunisiin | Tunisissa | Tunisista |
victoria_falls | Victorian putoukset | Victorian putousten | Victorian putouksille | Victorian putouksilla | Victorian putouksilta | Victoria Falls, Victoria Fallsiin, Viktorian putoukset
whalefish_bay | Whalefish Bay | Whalefish Bayn | Whalefish Bayhin | Whalefish Bayssä | Whalefish Baystä | Walvis Bay, Valaslahti
"""


@dataclass(frozen=True, slots=True)
class PlaceForms:
    """A place's Finnish display forms (vocabulary.md §3) and every other form accepted in text."""

    nominative: str
    genitive: str
    to: str
    at: str
    from_: str
    aliases: tuple[str, ...]


def _read_place_table() -> dict[str, PlaceForms]:
    out: dict[str, PlaceForms] = {}
    for line in _PLACE_TABLE.strip().splitlines():
        pid, nom, gen, to, at, frm, also = (part.strip() for part in line.split("|"))
        aliases = tuple(a.strip() for a in also.split(",") if a.strip())
        out[pid] = PlaceForms(nom, gen, to, at, frm, aliases)
    assert set(out) == set(PLACES), set(PLACES) ^ set(out)
    return out


PLACE_FI: dict[str, PlaceForms] = _read_place_table()
#: English board labels (map.json ``name_en``) and the aliases vocabulary.md §3 accepts
PLACE_EN: dict[str, tuple[str, ...]] = {
    pid: (PLACE[pid]["name_en"], *extra) for pid, extra in {
        "cairo": (), "tangier": (), "addis_abeba": ("Addis Ababa",), "ain_galaka": (), "bahr_el_ghasal": (),
        "canary_islands": ("Canaries",), "cape_guardafui": (), "cape_st_marie": ("Cape Sainte Marie",),
        "cape_verde": (), "capetown": ("Cape Town",), "congo": (), "dar_fur": ("Darfur",),
        "daressalam": ("Dar es Salaam",), "dragon_mountain": ("Drakensberg", "Dragon Mountains"),
        "egypt": (), "gold_coast": (), "kandjama": (), "lake_victoria": (), "morocco": (),
        "mozambique": (), "ocomba": (), "sahara": (), "sierra_leone": (), "slave_coast": (),
        "st_helena": ("Saint Helena",), "suakin": (), "tamatave": (), "timbuktu": ("Timbuctoo",),
        "tripoli": (), "tunis": (), "victoria_falls": (), "whalefish_bay": ("Walvis Bay", "Whale Fish Bay"),
    }.items()
}
#: words that name several places (vocabulary.md §5: ask, unless only one of them fits)
SHARED_PLACE_WORDS: dict[str, tuple[str, ...]] = {
    "victoria": ("lake_victoria", "victoria_falls"),
    "victorian": ("lake_victoria", "victoria_falls"),
    "viktoria": ("lake_victoria", "victoria_falls"),
    "cape": ("cape_guardafui", "cape_st_marie", "cape_verde", "capetown"),
    "kap": ("cape_guardafui", "cape_st_marie", "cape_verde", "capetown"),
    "niemi": ("cape_guardafui", "cape_st_marie"),
    "niemelle": ("cape_guardafui", "cape_st_marie"),
    "niemellä": ("cape_guardafui", "cape_st_marie"),
    "coast": ("gold_coast", "slave_coast"),
    "rannikko": ("gold_coast", "slave_coast"),
    "rannikolle": ("gold_coast", "slave_coast"),
}


def place_concept(pid: str) -> str:
    return "place:" + pid


def _spellings(form: str) -> set[str]:
    """A name with hyphens and spaces treated alike (vocabulary.md §1: Dar-Fur = dar fur = darfur)."""
    spaced = " ".join(tokens(form.replace("-", " ")))
    return {spaced, spaced.replace(" ", "")} if spaced else set()


_FROM_ENDINGS = ("sta", "stä", "lta", "ltä")


def _place_words() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """(Finnish, English) form tables: form -> concepts. Case forms beyond the table come from
    :func:`name_forms`, which is generous on purpose; a form that would name two places is kept
    only where vocabulary.md lists it as shared."""
    fi: dict[str, set[str]] = {}
    en: dict[str, set[str]] = {}
    for pid, f in PLACE_FI.items():
        listed = {f.nominative, f.genitive, f.to, f.at, f.from_, *f.aliases, PLACE[pid]["name_en"]}
        generated = set(name_forms(f.nominative)) | set(name_forms(PLACE[pid]["name_en"]))
        for form in listed | {g for g in generated if "'" not in g}:
            for spelling in _spellings(form):
                concepts = fi.setdefault(spelling, set())
                concepts.add(place_concept(pid))
                if spelling.endswith(_FROM_ENDINGS) or form == f.from_:
                    concepts.add(FROM)
        for form in PLACE_EN[pid]:
            for spelling in _spellings(form):
                en.setdefault(spelling, set()).add(place_concept(pid))
    for table in (fi, en):
        for form, concepts in list(table.items()):
            if len({c for c in concepts if c.startswith("place:")}) > 1:
                del table[form]  # a generated form shared by two places names neither
    for word, pids in SHARED_PLACE_WORDS.items():
        (en if word in ("cape", "coast") else fi)[word] = {place_concept(p) for p in pids}
    return fi, en


# Concepts of the game's own words.
ROLL, GO, STOP, SAIL, FREE, FLY, FLIP, BUY, TRY, STAY, SKIP, DONE, HERE, STEP, START, FROM, YES = (
    "roll", "go", "stop", "sail", "free", "fly", "flip", "buy", "try", "stay", "skip", "done", "here", "step",
    "start", "from", "yes",
)
# "Suakinin kautta" names the place before the word, "via Suakin" the place after it.
VIA_AFTER, VIA_BEFORE = "via_after", "via_before"

# Finnish entries are base forms (the lemmatiser finds heitän, heitetään, heitä…) or surface forms that
# the lemmatiser reads oddly; English entries match through their stems (rolls, rolled -> roll).
WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    "fi": {
        ROLL: ("heittää", "heitto", "noppa", "nopanheitto", "nopalla", "heitä", "heitän"),
        GO: (
            "liikkua", "kävellä", "mennä", "siirtyä", "siirtää", "jatkaa", "kulkea", "edetä", "matkustaa",
            "lähteä", "suunnata", "vaeltaa", "meen", "mee", "liiku", "lähden liikkeelle",
        ),
        STOP: ("pysähtyä", "pysähdyn", "pysähdy"),
        SAIL: (
            "purjehtia", "laiva", "laivalla", "seilata", "vene", "merimatka", "laivamatka", "laivalippu",
            "lippu", "nousta laivaan", "merelle", "meritse", "purjehdus", "purjehdi",
        ),
        FREE: ("ilmainen", "ilmaiseksi", "ilmaismatka", "ilman rahaa", "maksutta", "ilmaispurjehdus"),
        FLY: ("lentää", "lento", "lentokone", "lentäen", "lennolla", "koneella", "lennä", "lennän"),
        FLIP: (
            "kääntää", "kiekko", "merkki", "aarre", "aarrekiekko", "avata", "paljastaa", "kääntö", "käännä",
            "käännän",
        ),
        BUY: ("ostaa", "maksaa"),
        TRY: ("yrittää", "koettaa", "yritys", "yritän", "yritä"),
        STAY: (
            "pysyä", "odottaa", "jäädä", "paikallaan", "paikallasi", "paikallani", "paikoillaan",
            "paikoillasi", "paikoillani", "en liiku", "jään", "jää",
        ),
        SKIP: ("ohittaa", "passata", "passaan", "ohi"),
        DONE: (
            "valmis", "lopettaa", "seuraava", "riittää", "ei muuta", "lopeta vuoro", "vuoro loppu",
            "lopetan vuoron", "ei kiitos",
        ),
        HERE: ("tähän", "tässä", "täällä", "tänne", "nykyinen paikka"),
        VIA_AFTER: ("kautta", "läpi", "ohitse"),
        STEP: ("askel", "askeleen", "askelta", "ruutu", "piste", "pisteeseen", "pallo", "pykälä"),
        START: ("aloittaa", "alku", "lähtö", "lähtöpaikka", "valita", "lähtöpaikaksi", "aloituspaikka"),
        YES: ("kyllä", "joo", "juu", "totta kai"),
    },
    "en": {
        ROLL: ("roll", "throw", "dice", "die", "roll the die"),
        GO: ("move", "go", "walk", "head", "travel", "continue", "proceed"),
        STOP: ("stop", "halt"),
        SAIL: ("sail", "ship", "boat", "board", "ferry", "voyage", "ticket", "by sea", "take the ship"),
        FREE: ("free", "for free", "free passage", "without paying"),
        FLY: ("fly", "flight", "plane", "airplane", "aeroplane", "by air", "take a plane"),
        FLIP: ("flip", "token", "turn over", "reveal", "open", "turn it over"),
        BUY: ("buy", "pay"),
        TRY: ("try", "attempt"),
        STAY: ("stay", "wait", "stay put", "remain", "don't move", "do not move"),
        SKIP: ("skip", "pass"),
        DONE: ("done", "end", "finish", "next", "end turn", "that's all", "nothing", "no thanks", "end my turn"),
        HERE: ("here", "where i am", "right here"),
        VIA_BEFORE: ("via", "through", "by way of", "past"),
        STEP: ("step", "steps", "dot", "space"),
        START: ("begin", "choose", "pick", "starting"),
        FROM: ("from",),
        YES: ("yes", "yeah", "sure", "yep"),
    },
}

# Concepts that make a message a game command (and not chat), with the action they ask for.
COMMANDS = {
    ROLL: "roll", GO: "move", STOP: "move", SAIL: "board", FREE: "free_sail", FLY: "fly", FLIP: "flip",
    BUY: "flip", TRY: "flip_roll", STAY: "stay", SKIP: "stay", DONE: "end_phase", HERE: "move",
    START: "start", STEP: "move", YES: "flip",
}


def _lexicon_words() -> dict[str, dict[str, tuple[str, ...]]]:
    fi_places, en_places = _place_words()
    words: dict[str, dict[str, list[str]]] = {lang: {k: list(v) for k, v in table.items()}
                                              for lang, table in WORDS.items()}
    for lang, table in (("fi", fi_places), ("en", en_places)):
        for form, concepts in table.items():
            for concept in concepts:
                words[lang].setdefault(concept, []).append(form)
    return {lang: {k: tuple(v) for k, v in table.items()} for lang, table in words.items()}


# --------------------------------------------------------------------------------------------------
# 2. Board geometry the texts need
# --------------------------------------------------------------------------------------------------


def move_paths(view: Any, seat: int) -> dict[str, tuple[tuple[str, ...], ...]]:
    """Where the move in progress may end over land, with every path there (shortest first, the
    engine's canonical path first), from the seat's view."""
    me = view.pawns[seat]
    move = view.move
    if move is None or me.node is None:
        return {}
    stops = GOALS if me.items else frozenset()
    return land_paths(me.node, move.steps, frozenset(move.visited), stops,
                      view.options.hazard_trigger == "pass_through")


def chosen_path(paths: dict[str, tuple[tuple[str, ...], ...]], to: str, via: str | None) -> tuple[str, ...]:
    """The path ``move to [via]`` takes: the canonical one, or the first that passes ``via``."""
    options = paths.get(to, ())
    if via is None:
        return options[0] if options else ()
    return next((p for p in options if via in p[:-1]), ())


@lru_cache(maxsize=4096)
def ahead(prev: str, node: str) -> tuple[tuple[str, int], ...]:
    """The places first met going on from ``node`` away from ``prev`` over land (several beyond a
    junction), nearest first, with their distance in steps: what a dot "leads toward"."""
    found: list[tuple[str, int]] = []
    frontier, seen = [node], {prev, node}
    for distance in range(1, 17):
        nxt: list[str] = []
        for n in frontier:
            for m in LAND.get(n, ()):
                if m in seen:
                    continue
                seen.add(m)
                if m in PLACE_SET:
                    found.append((m, distance))
                else:
                    nxt.append(m)
        if not nxt:
            break
        frontier = nxt
    return tuple(found)


def dot_ends(node: str) -> tuple[str, ...]:
    """The nearest place in each direction from a land dot (two for a dot on a road, more at a
    junction), for "between Sahara and Dar-Fur"."""
    out: list[str] = []
    for first in LAND.get(node, ()):
        places = (first,) if first in PLACE_SET else tuple(p for p, _d in ahead(node, first))
        out.extend(p for p in places[:1] if p not in out)
    return tuple(out)


# --------------------------------------------------------------------------------------------------
# 3. What a message says
# --------------------------------------------------------------------------------------------------


@dataclass(slots=True)
class Reading:
    """Concepts said and denied, the places named as destinations (in order, each a tuple of the
    places one word may name), the "via" places, the "from" places and the step counts."""

    said: set[str] = field(default_factory=set)
    denied: set[str] = field(default_factory=set)
    places: list[tuple[str, ...]] = field(default_factory=list)
    vias: list[tuple[str, ...]] = field(default_factory=list)
    froms: list[tuple[str, ...]] = field(default_factory=list)
    numbers: list[int] = field(default_factory=list)
    unknown: int = 0
    question: bool = False
    negation: bool = False

    @classmethod
    def of(cls, items: Sequence[Item]) -> Reading:
        r = cls()
        r.question = bool(items) and items[0].has(QUESTION)
        for i, item in enumerate(items):
            pids = tuple(sorted(c.removeprefix("place:") for c in item.concepts if c.startswith("place:")))
            concepts = {c for c in item.concepts if not c.startswith("place:")}
            (r.denied if item.negated else r.said).update(concepts - {FROM})
            r.negation |= item.has(NEG)
            if pids:
                before = items[i - 1] if i > 0 else None
                after = items[i + 1] if i + 1 < len(items) else None
                if (after is not None and after.has(VIA_AFTER)) or (before is not None and before.has(VIA_BEFORE)):
                    r.vias.append(pids)  # "Suakinin kautta", "via Suakin"
                elif item.has(FROM) or (before is not None and before.has(FROM)):
                    r.froms.append(pids)  # "Kairosta", "from Cairo"
                else:
                    r.places.append(pids)
            elif item.numbers:
                r.numbers.append(item.numbers[0].value)
            elif not item.known:
                r.unknown += 1
        return r

    def has(self, *concepts: str) -> bool:
        return any(c in self.said for c in concepts)

    def denies(self, *concepts: str) -> bool:
        return any(c in self.denied for c in concepts)

    @property
    def named(self) -> list[tuple[str, ...]]:
        """Destinations; a lone "from" place counts as one ("Kairosta" when choosing a start)."""
        return self.places or self.froms

    @property
    def is_command(self) -> bool:
        """A game command, not chat: a command word, or a message of nothing but place names (and
        step counts), like "Kongoon" or "Kairo"."""
        if (self.said | self.denied) & COMMANDS.keys():
            return True
        if self.unknown:
            return False
        return bool(self.places or self.froms or self.vias) or self.negation  # "Kongoon", a bare "ei"


# --------------------------------------------------------------------------------------------------
# 4. The parser
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Legal:
    """The legal notations by kind, for matching."""

    starts: dict[str, str]
    moves: tuple[tuple[str, str, str | None], ...]  # (notation, destination node, via place)
    boards: dict[str, str]
    frees: dict[str, str]
    flies: dict[str, str]
    simple: frozenset[str]  # roll, flip, flip_roll, stay, end_phase

    @classmethod
    def of(cls, legal: Iterable[str]) -> Legal:
        starts: dict[str, str] = {}
        moves: list[tuple[str, str, str | None]] = []
        boards: dict[str, str] = {}
        frees: dict[str, str] = {}
        flies: dict[str, str] = {}
        simple: set[str] = set()
        for notation in legal:
            words = notation.split()
            match words:
                case ["start", place]:
                    starts[place] = notation
                case ["move", to]:
                    moves.append((notation, node_of(to) or to, None))
                case ["move", to, "via", via]:
                    moves.append((notation, node_of(to) or to, node_of(via) or via))
                case ["board", to]:
                    boards[to] = notation
                case ["free_sail", to]:
                    frees[to] = notation
                case ["fly", to]:
                    flies[to] = notation
                case [word]:
                    simple.add(word)
        return cls(starts, tuple(moves), boards, frees, flies, frozenset(simple))


class AfrikanTahtiParser:
    """Understands Afrikan Tähti commands; one instance per lemmatiser (tests force each backend)."""

    def __init__(self, lemmatizer: Lemmatizer | None = None) -> None:
        self.lexicon = Lexicon(_lexicon_words(), lemmatizer)
        self.x = XParser(lemmatizer)

    def read(self, text: str, lang: str, names: Sequence[str] = ()) -> Reading:
        # hyphens and spaces are alike in place names ("Dar-Fur", "Ain Galaka")
        return Reading.of(self.lexicon.scan(text.replace("-", " "), lang, names))

    def parse(self, text: str, ctx: ParseContext) -> ParseResult:
        typed = " ".join(text.casefold().split())
        if typed in ctx.legal:
            return Parsed((typed,))  # a notation typed as is ("move p12", "fly cairo")
        r = self.read(text, ctx.lang, ctx.seat_names)
        if r.question or text.rstrip().endswith("?"):
            return NotUnderstood()  # "miten lentäminen toimii?" is for the rules, not a move
        if getattr(ctx.view, "x", None) is not None and ctx.seat is not None:
            xresult = self.x.parse(text, ctx)
            if xresult is not None:
                return xresult
        if not r.is_command:
            return NotUnderstood()
        view = ctx.view
        phase = str(getattr(view, "phase", "") or "")
        if phase == OVER:
            return NotLegal("game_over")
        if not ctx.legal or ctx.seat is None:
            turn = getattr(view, "turn", None)
            return NotLegal("not_your_turn", (("turn", turn),) if turn is not None else ())
        handler = {
            SETUP: self._setup, DECLARE: self._declare, RELEASE: self._release, MOVE: self._move,
            AFTER_MOVE: self._after_move,
        }.get(phase)
        if handler is None:
            return NotUnderstood()  # a phase of the expansion: its buttons still work
        return handler(r, Turn(ctx, Legal.of(ctx.legal)))

    # --- setup: choose Tangier or Cairo ---------------------------------------------------------

    def _setup(self, r: Reading, turn: Turn) -> ParseResult:
        named = _flat(r.named)
        starts = [turn.legal.starts[p] for p in named if p in turn.legal.starts]
        if len(set(starts)) == 1:
            return Parsed((starts[0],))
        if starts:
            return Ambiguous(tuple(dict.fromkeys(starts)), "start")
        if named:
            return NotLegal("not_a_start", (("place", named[0]),))
        if r.has(START, GO, ROLL):
            return Ambiguous(tuple(turn.legal.starts.values()), "start")
        return turn.wrong_phase()

    # --- captured: the release roll ---------------------------------------------------------------

    def _release(self, r: Reading, turn: Turn) -> ParseResult:
        if r.has(ROLL, GO, TRY) and "roll" in turn.legal.simple:
            return Parsed(("roll",))
        return turn.wrong_phase()

    # --- declare: roll, sail, fly, flip, roll for the token, stay -----------------------------------

    def _declare(self, r: Reading, turn: Turn) -> ParseResult:
        me = turn.me
        dest = _first(r.named)
        if r.has(FLIP) or (r.has(BUY) and not r.has(SAIL) and not dest):
            if r.has(ROLL, TRY):
                return turn.pick("flip_roll") or turn.why_not_flip(roll=True)
            return turn.pick("flip") or turn.why_not_flip(roll=False)
        if r.has(FLY):
            return self._fly(dest, turn)
        if r.has(SAIL, FREE) or (r.has(BUY) and dest):
            return self._sail(dest, r.has(FREE), turn)
        if me.voyage is not None:  # at sea: sail on or stay (S5)
            if r.has(STAY, SKIP, DONE) or r.denies(GO, ROLL):
                return turn.pick("stay") or turn.wrong_phase()
            if r.has(ROLL, GO, STOP) or dest:
                return self._sail(dest, False, turn)
        elif (r.has(STAY, SKIP, DONE) or r.denies(GO, ROLL)) and (not dest or me.node in dest):
            return turn.pick("stay") or turn.wrong_phase()  # "jää tähän"; "jään Timbuktuun" walks there
        if dest:
            return self._toward(dest, r.has(GO, ROLL, STOP, STAY), turn)
        if r.has(ROLL, GO):
            return turn.pick("roll") or turn.wrong_phase()
        return turn.refusal(r)

    def _fly(self, dest: tuple[str, ...] | None, turn: Turn) -> ParseResult:
        flies = turn.legal.flies
        if dest:
            fits = [flies[p] for p in dest if p in flies]
            if len(fits) == 1:
                return Parsed((fits[0],))
            if fits:
                return Ambiguous(tuple(fits), "destination")
            return turn.why_not_fly(dest[0])
        if len(flies) == 1:
            return Parsed(tuple(flies.values()))
        if flies:
            return Ambiguous(tuple(flies.values()), "destination")
        return turn.why_not_fly(None)

    def _sail(self, dest: tuple[str, ...] | None, free: bool, turn: Turn) -> ParseResult:
        legal, me = turn.legal, turn.me
        if me.voyage is not None:  # continuing: a paid voyage rolls, a free one moves on by itself
            if dest and me.voyage.dest not in dest:
                return NotLegal("wrong_destination", (("dest", me.voyage.dest),))
            if me.voyage.paid:
                return turn.pick("roll") or turn.wrong_phase()
            return Parsed((legal.frees[me.voyage.dest],)) if me.voyage.dest in legal.frees else turn.wrong_phase()
        ships = {**legal.boards, **legal.frees}
        if dest:
            fits = [ships[p] for p in dest if p in ships]
            if len(fits) == 1:
                return Parsed((fits[0],))
            if fits:
                return Ambiguous(tuple(fits), "destination")
            return turn.why_not_sail(dest[0], free)
        if len(ships) == 1:
            return Parsed(tuple(ships.values()))
        if ships:
            return Ambiguous(tuple(ships.values()), "destination")
        return turn.why_not_sail(None, free)

    def _toward(self, dest: tuple[str, ...], walking: bool, turn: Turn) -> ParseResult:
        """A destination before the roll: walking there means rolling first; the move follows in
        the same command when the die allows it (the core drops a follow-up that is not legal)."""
        legal, me = turn.legal, turn.me
        if me.node in dest and not walking:
            return turn.pick("stay") or turn.wrong_phase()
        other = [table[p] for p in dest for table in (legal.boards, legal.frees, legal.flies) if p in table]
        if "roll" not in legal.simple:
            return Ambiguous(tuple(other), "destination") if other else turn.wrong_phase()
        if other and not walking:
            # "Kongoon" from a port or airport with a route to Congo: fly, sail or walk?
            return Ambiguous((*other, "roll"), "how")
        if len(dest) > 1:
            return Parsed(("roll",))  # "Victoria": the buttons after the roll tell the two apart
        return Parsed(("roll", f"move {CODE[dest[0]]}"))

    # --- move: where the rolled move ends -------------------------------------------------------------

    def _move(self, r: Reading, turn: Turn) -> ParseResult:
        legal, me = turn.legal, turn.me
        here = me.node
        stop_here = next((n for n, to, via in legal.moves if to == here and via is None), None)
        dest = _first(r.named)
        if r.has(FLY):
            return turn.wrong_phase()
        if r.has(SAIL, FREE):
            boards = legal.boards
            if dest:
                fits = [boards[p] for p in dest if p in boards]
                if len(fits) == 1:
                    return Parsed((fits[0],))
                if fits:
                    return Ambiguous(tuple(fits), "destination")
                return turn.why_not_board_now(dest[0])
            if boards:
                return Parsed(tuple(boards.values())) if len(boards) == 1 else Ambiguous(tuple(boards.values()))
            return turn.why_not_board_now(None)
        then_flip = ("flip",) if r.has(FLIP) and not r.denies(FLIP) else ()
        if dest and here not in dest:
            return self._destination(dest, _first(r.vias), r.numbers, then_flip, turn)
        if r.numbers and (r.has(STEP, GO, STOP) or not r.said - {STEP}):
            return self._steps(r.numbers[0], None, then_flip, turn)
        if dest or r.has(STAY, HERE, SKIP, DONE) or then_flip or (r.has(STOP) and not r.has(GO)):
            if stop_here:
                return Parsed((stop_here, *then_flip))
            return NotLegal("not_a_place", (("node", here),))
        if r.has(ROLL, TRY):
            return turn.wrong_phase()
        if r.has(GO, STOP, STEP):
            return Ambiguous(tuple(n for n, _to, _via in legal.moves) + tuple(legal.boards.values()), "destination")
        return turn.refusal(r)

    def _destination(self, dest: tuple[str, ...], via: tuple[str, ...] | None, numbers: list[int],
                     then: tuple[str, ...], turn: Turn) -> ParseResult:
        legal = turn.legal
        fits = [(n, to, v) for n, to, v in legal.moves if to in dest]
        if not fits:
            if numbers:  # "3 askelta Kongon suuntaan": a dot toward Congo
                return self._steps(numbers[0], dest, then, turn)
            ships = [legal.boards[p] for p in dest if p in legal.boards]
            if ships:
                # the place is reached only by ship: confirm the fare with a button (vocabulary.md §5)
                return Ambiguous(tuple(ships), "board")
            return NotLegal("not_reachable", (("to", dest[0]),))
        places = {to for _n, to, _v in fits}
        if len(places) > 1:
            return Ambiguous(tuple(n for n, _to, v in fits if v is None), "destination")
        if via:
            exact = [n for n, _to, v in fits if v in via]
            if exact:
                return Parsed((exact[0], *then))
            plain = next(n for n, _to, v in fits if v is None)
            canonical = chosen_path(turn.paths, fits[0][1], None)
            if any(p in canonical[:-1] for p in via):
                return Parsed((plain, *then))  # the canonical path already goes that way
            return NotLegal("not_on_path", (("via", via[0]),))
        if len(fits) > 1 and turn.via_matters(fits[0][1]):
            return Ambiguous(tuple(n for n, _to, _v in fits), "via")
        plain = next(n for n, _to, v in fits if v is None)
        return Parsed((plain, *then))

    def _steps(self, steps: int, toward: tuple[str, ...] | None, then: tuple[str, ...], turn: Turn) -> ParseResult:
        """Moves of exactly ``steps`` steps (dots included), toward a place when one is named; of
        two dots toward the same place the one nearer to it is meant."""
        fits: list[tuple[int, str]] = []
        for n, to, via in turn.legal.moves:
            if via is not None:
                continue
            path = chosen_path(turn.paths, to, None)
            if len(path) != steps:
                continue
            if not toward or to in toward:
                fits.append((0, n))
            elif to not in PLACE_SET:
                prev = path[-2] if len(path) > 1 else turn.me.node
                near = [d for p, d in ahead(prev, to) if p in toward]
                if near:
                    fits.append((min(near), n))
        best = [n for d, n in fits if d == min((d for d, _n in fits), default=0)]
        if len(best) == 1:
            return Parsed((best[0], *then))
        if best:
            return Ambiguous(tuple(best), "destination")
        return NotLegal("not_reachable", (("steps", steps),))

    # --- after the move: flip the token here or not ------------------------------------------------

    def _after_move(self, r: Reading, turn: Turn) -> ParseResult:
        if r.denies(FLIP, BUY) or r.has(DONE, SKIP, STAY) or (r.negation and not r.has(FLIP, BUY, YES)):
            return turn.pick("end_phase") or turn.wrong_phase()
        if r.has(FLIP, BUY, YES):
            if r.has(ROLL, TRY):
                return turn.wrong_phase()  # the roll for a token replaces a move; after one it is too late
            return turn.pick("flip") or turn.why_not_flip(roll=False)
        return turn.refusal(r)


@dataclass(slots=True)
class Turn:
    """The speaker's situation while one message is parsed: legal notations, own pawn, paths."""

    ctx: ParseContext
    legal: Legal
    _paths: dict[str, tuple[tuple[str, ...], ...]] | None = None

    @property
    def view(self) -> Any:
        return self.ctx.view

    @property
    def me(self) -> Any:
        return self.view.pawns[self.ctx.seat]

    @property
    def paths(self) -> dict[str, tuple[tuple[str, ...], ...]]:
        if self._paths is None:
            self._paths = move_paths(self.view, self.ctx.seat)
        return self._paths

    def pick(self, notation: str) -> Parsed | None:
        return Parsed((notation,)) if notation in self.legal.simple else None

    def wrong_phase(self) -> NotLegal:
        return NotLegal("wrong_phase", (("phase", self.view.phase),))

    def refusal(self, r: Reading) -> ParseResult:
        return self.wrong_phase() if (r.said | r.denied) & COMMANDS.keys() else NotUnderstood()

    def via_matters(self, to: str) -> bool:
        """Whether the paths to ``to`` differ in a way the player may care about. In the base game
        only the Capetown bonus rewards passing a place; in other modes passing places draws event
        cards, so the choice always matters there."""
        if not is_base(self.view.options):
            return True
        unclaimed = self.view.capetown_claimed is None and self.view.options.capetown_bonus > 0
        return unclaimed and any(CAPETOWN in p[:-1] for p in self.paths.get(to, ()))

    # --- reasons, worked out like the engine's check -----------------------------------------------

    def why_not_flip(self, roll: bool) -> NotLegal:
        me, view = self.me, self.view
        if view.phase not in (DECLARE, AFTER_MOVE):
            return self.wrong_phase()
        if not any(place == me.node for place, _tid in view.face_down):
            return NotLegal("no_token", (("node", me.node),))
        if view.flipped_this_turn:
            return NotLegal("already_flipped")
        if roll:
            if view.phase != DECLARE:
                return self.wrong_phase()
            if roll_only_when_broke(view.options) and me.cash >= FLIP_PRICE:
                return NotLegal("can_afford_flip", (("price", FLIP_PRICE),))
        elif me.cash < FLIP_PRICE:
            return NotLegal("cannot_afford", (("price", FLIP_PRICE), ("cash", me.cash)))
        return self.wrong_phase()

    def why_not_fly(self, to: str | None) -> NotLegal:
        me = self.me
        if me.voyage is not None:
            return NotLegal("at_sea")
        if me.node not in AIRPORTS:
            return NotLegal("not_an_airport", (("node", me.node),))
        if to is not None and (me.node, to) not in AIR:
            return NotLegal("no_such_route", (("start", me.node), ("to", to)))
        if me.cash < AIR_FARE:
            return NotLegal("cannot_afford", (("price", AIR_FARE), ("cash", me.cash)))
        return self.wrong_phase()

    def why_not_sail(self, to: str | None, free: bool) -> NotLegal:
        me = self.me
        if me.node not in PORTS:
            return NotLegal("not_a_port", (("node", me.node),))
        if to is not None and (me.node, to) not in LEGS:
            return NotLegal("no_such_leg", (("port", me.node), ("dest", to)))
        if free and me.cash >= SEA_FARE:
            return NotLegal("can_afford_fare", (("fare", SEA_FARE),))
        return self.wrong_phase()

    def why_not_board_now(self, to: str | None) -> NotLegal:
        me, move = self.me, self.view.move
        if me.node not in PORTS:
            return NotLegal("not_a_port", (("node", me.node),))
        if to is not None and (me.node, to) not in LEGS:
            return NotLegal("no_such_leg", (("port", me.node), ("dest", to)))
        if move is not None and move.steps <= 0:
            return NotLegal("no_steps_left")
        if me.cash < SEA_FARE:
            return NotLegal("cannot_afford", (("price", SEA_FARE), ("cash", me.cash)))
        if to is not None and move is not None and LEGS[(me.node, to)].path[1] in move.visited:
            return NotLegal("leg_blocked", (("dest", to),))
        return NotLegal("cannot_board_here")


def is_base(options: Any) -> bool:
    """Whether a game plays the plain base rules (older options name the mode, newer ones say
    whether the Retkikunnat expansion is on)."""
    if hasattr(options, "expansion"):
        return not options.expansion
    return getattr(options, "mode", "base") == "base"


def _first(named: list[tuple[str, ...]]) -> tuple[str, ...] | None:
    return named[0] if named else None


def _flat(named: list[tuple[str, ...]]) -> list[str]:
    return list(dict.fromkeys(p for pids in named for p in pids))


@lru_cache(maxsize=1)
def _default_parser() -> AfrikanTahtiParser:
    return AfrikanTahtiParser()


def parse(text: str, ctx: ParseContext) -> ParseResult:
    """Understand ``text`` as Afrikan Tähti actions legal for the speaker now (see the module docstring)."""
    return _default_parser().parse(text, ctx)


# --------------------------------------------------------------------------------------------------
# 5. Retkikunnat (expansion) commands: cards, characters, answers, duels and offers
# --------------------------------------------------------------------------------------------------

(X_SELL, X_USE, X_PLAY, X_DISCARD, X_HOLD, X_UNHOLD, X_PASS, X_ACCEPT, X_DECLINE, X_DUEL, X_OFFER, X_FOR,
 X_CHOOSE, X_PEEK, X_EXCHANGE, X_BUYD, X_SWAP, X_REROLL, X_DONE, X_GEMS, X_PLUS, X_MINUS, X_ROLL, X_MONEY,
 X_STAR, X_HORSESHOE, X_FLIP, X_END) = (f"x_{n}" for n in (
    "sell", "use", "play", "discard", "hold", "unhold", "pass", "accept", "decline", "duel", "offer", "for",
    "choose", "peek", "exchange", "buyd", "swap", "reroll", "done", "gems", "plus", "minus", "roll", "money",
    "star", "horseshoe", "flip", "end"))

X_WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    "fi": {
        X_SELL: ("myydä", "myy", "myyn"),
        X_USE: ("käyttää", "käytä", "käytän", "käyttö"),
        X_PLAY: ("pelata", "pelaa", "pelaan", "käsikortti"),
        X_DISCARD: ("poistaa", "poista", "luopua", "heittää pois", "heitä pois", "heitän pois", "pois"),
        X_HOLD: ("säästää", "säästä", "säästän", "älä käytä automaattisesti"),
        X_UNHOLD: ("käytä taas", "käytän taas", "ota käyttöön", "automaattisesti"),
        X_PASS: ("ohittaa", "ohita", "ohitan", "passata", "passaan", "en pelaa", "ei mitään", "ohi"),
        X_ACCEPT: ("hyväksyä", "hyväksy", "hyväksyn", "sopii", "käy", "diili", "kyllä"),
        X_DECLINE: ("hylätä", "hylkää", "hylkään", "kieltäytyä", "ei käy", "en hyväksy", "en osta"),
        X_DUEL: ("haastaa", "haasta", "haastan", "ryöstää", "ryöstä", "ryöstän", "yhteenotto", "ryöstämään"),
        X_OFFER: ("tarjota", "tarjoan", "tarjoa", "tarjous", "vaihtokauppa", "kauppa", "vaihdetaan"),
        X_FOR: ("vastaan", "hintaan"),
        X_CHOOSE: ("valita", "valitse", "valitsen", "olen", "otan", "valinta"),
        X_PEEK: ("kurkistaa", "kurkista", "kurkistan", "katsoa", "katso", "kurkistus"),
        X_EXCHANGE: ("vaaratilanne", "vaaratilannekortti", "vaaratilanteeseen", "vaaratilannekortin"),
        X_BUYD: ("poistopakka", "poistopakasta", "poistettu kortti", "poistetun kortin"),
        X_SWAP: ("vaihtaa pino", "vaihda pino", "vaihdan pinon", "pino", "vaihdan kiekot", "vaihda kiekot"),
        X_REROLL: ("uusia", "uusi", "uusin", "uudelleen", "uudestaan", "uusi heitto"),
        X_DONE: ("valmis", "riittää", "pidän nämä", "pidän", "en uusi", "pidä nopat"),
        X_GEMS: ("jalokiviheitto", "heitä jalokiviä", "jalokivi", "jalokiviä"),
        X_PLUS: ("plus", "yksi lisää", "lisää"),
        X_MINUS: ("miinus", "yksi vähemmän", "vähemmän"),
        X_ROLL: ("heittää", "heitä", "heitän", "noppa", "nopat", "vaaranopat"),
        X_MONEY: ("punta", "puntaa", "punnasta", "punnan", "punnalla", "£", "rahaa", "raha"),
        X_STAR: ("tähti", "tähden", "tähteä", "tähdestä", "afrikan tähti", "timantti", "timantin"),
        X_HORSESHOE: ("hevosenkenkä", "hevosenkengän", "hevosenkenkää", "hevosenkengästä"),
        X_FLIP: ("kääntää", "käännä", "käännän", "kiekko", "osta kiekko"),
        X_END: ("lopeta vuoro", "lopetan", "lopeta", "seuraava", "ei muuta", "jatka", "jatkan"),
    },
    "en": {
        X_SELL: ("sell",),
        X_USE: ("use",),
        X_PLAY: ("play",),
        X_DISCARD: ("discard", "drop", "get rid of", "throw away"),
        X_HOLD: ("hold", "don't auto-use", "keep for later"),
        X_UNHOLD: ("unhold", "auto-use", "auto-use again", "release"),
        X_PASS: ("pass", "skip", "nothing"),
        X_ACCEPT: ("accept", "yes", "deal", "agree"),
        X_DECLINE: ("decline", "reject", "refuse", "no deal"),
        X_DUEL: ("challenge", "duel", "rob"),
        X_OFFER: ("offer", "trade"),
        X_FOR: ("for",),
        X_CHOOSE: ("choose", "pick", "i'll be", "be"),
        X_PEEK: ("peek", "look at"),
        X_EXCHANGE: ("exchange", "danger card", "danger"),
        X_BUYD: ("discard pile", "from the discard"),
        X_SWAP: ("swap", "swap the stack", "swap stacks"),
        X_REROLL: ("reroll", "again"),
        X_DONE: ("done", "keep", "no reroll", "keep the dice"),
        X_GEMS: ("gem roll", "gems", "roll for a card"),
        X_PLUS: ("plus", "plus one", "one more"),
        X_MINUS: ("minus", "minus one", "one less"),
        X_ROLL: ("roll", "throw", "dice"),
        X_MONEY: ("pounds", "pound", "£", "money"),
        X_STAR: ("star", "star of africa"),
        X_HORSESHOE: ("horseshoe",),
        X_FLIP: ("flip", "flip the token", "buy the token"),
        X_END: ("end turn", "end my turn", "next", "that's all", "go on"),
    },
}


def _x_lexicon_words() -> dict[str, dict[str, tuple[str, ...]]]:
    from chatbot.games.afrikan_tahti.cards_generated import CHARACTERS, EVENT_CARDS, EXPEDITION_CARDS, FI_FORMS

    words: dict[str, dict[str, list[str]]] = {lang: {k: list(v) for k, v in table.items()}
                                              for lang, table in X_WORDS.items()}
    for table in (CHARACTERS, EXPEDITION_CARDS, EVENT_CARDS):
        for ident, (name, _text) in table.items():
            concept = "card:" + ident
            words["en"].setdefault(concept, []).extend((name.rstrip("!"), ident.replace("_", " ")))
            forms = FI_FORMS.get(ident, ())
            for form in forms:
                words["fi"].setdefault(concept, []).append(form)
            if ident in CHARACTERS:  # "olen Lääkärinä", "Seikkailijaksi"
                words["fi"][concept].extend(f for f in name_forms(forms[0]) if "'" not in f)
    fi_places, en_places = _place_words()
    for lang, table in (("fi", fi_places), ("en", en_places)):
        for form, concepts in table.items():
            for concept in concepts:
                if concept.startswith("place:"):
                    words[lang].setdefault(concept, []).append(form)
    return {lang: {k: tuple(v) for k, v in table.items()} for lang, table in words.items()}


@dataclass(slots=True)
class XReading:
    said: set[str] = field(default_factory=set)
    denied: set[str] = field(default_factory=set)
    cards: list[str] = field(default_factory=list)
    places: list[str] = field(default_factory=list)
    seats: list[int] = field(default_factory=list)
    numbers: list[int] = field(default_factory=list)

    def has(self, *concepts: str) -> bool:
        return any(c in self.said for c in concepts)


_X_HEADS = {
    "sell": X_SELL, "use": X_USE, "discard": X_DISCARD, "hold": X_HOLD, "unhold": X_UNHOLD, "peek": X_PEEK,
    "exchange": X_EXCHANGE, "buy_discard": X_BUYD, "swap_stack": X_SWAP, "gem_roll": X_GEMS,
}


class XParser:
    """Matches an expansion command against the legal notations; ``None`` when it says nothing the
    expansion knows, so the base phases' parser gets its turn."""

    def __init__(self, lemmatizer: Lemmatizer | None = None) -> None:
        self.lexicon = Lexicon(_x_lexicon_words(), lemmatizer)

    def read(self, text: str, lang: str, names: Sequence[str]) -> XReading:
        r = XReading()
        for item in self.lexicon.scan(text.replace("-", " "), lang, names):
            concepts = set(item.concepts)
            r.cards.extend(c[5:] for c in sorted(concepts) if c.startswith("card:"))
            r.places.extend(c[6:] for c in sorted(concepts) if c.startswith("place:"))
            plain = {c for c in concepts if ":" not in c}
            (r.denied if item.negated else r.said).update(plain - {NEG})
            if item.has(NEG) and not plain - {NEG}:
                r.denied.add(NEG)
            r.seats.extend(item.seats)
            if item.numbers and not concepts:
                r.numbers.extend(n.value for n in item.numbers[:1] if n.value is not None)
        return r

    def parse(self, text: str, ctx: ParseContext) -> ParseResult | None:
        r = self.read(text, ctx.lang, ctx.seat_names)
        legal = list(ctx.legal)
        if not legal:
            return None
        fits = [n for n in legal if self._fits(n.split(), r, ctx)]
        if not fits and r.has(X_OFFER) and any(n.startswith("offer ") for n in legal):
            return self._offer(r, ctx)
        if not fits and (r.denied & {X_PLAY, X_REROLL, X_ACCEPT, NEG} or r.has(X_PASS)):
            fits = [n for n in legal if n in ("pass", "decline", "reroll_done")][:1]
        if not fits:
            return None
        if any(n.startswith("play ") for n in fits) and not ctx.extra.get("private", True):
            return NotLegal("play_in_private")
        if len(fits) == 1:
            return Parsed((fits[0],))
        return Ambiguous(tuple(fits[:8]), "card")

    def _fits(self, w: list[str], r: XReading, ctx: ParseContext) -> bool:
        head = w[0]
        cards, places, seats = r.cards, r.places, r.seats
        match w:
            case ["character", ident]:
                return ident in cards
            case ["seaplane", port]:
                return "seaplane" in cards and port in places
            case ["gem_roll"]:
                return r.has(X_GEMS)
            case ["reroll_move"]:
                return r.has(X_REROLL) and not r.numbers and ("compass" in cards or not cards)
            case ["adjust", delta]:
                return r.has(X_PLUS) if delta == "+1" else r.has(X_MINUS)
            case ["reroll", card, dice]:
                wanted = ",".join(str(n) for n in sorted(set(r.numbers)))
                return r.has(X_REROLL, X_ROLL) and wanted == dice and (not cards or card in cards)
            case ["reroll_done"]:
                return r.has(X_DONE)
            case ["use", card, *arg]:
                used = r.has(X_USE) or (bool(places) and not r.said - {X_CHOOSE})
                return used and card in cards and (not arg or not places or arg[0] in places)
            case [("sell" | "discard" | "hold" | "unhold"), card]:
                if head == "sell" and seats:
                    return False  # "myyn Ratsun Matille": a trade offer
                if head == "hold" and r.has(X_UNHOLD):
                    return False
                return r.has(_X_HEADS[head]) and card in cards
            case ["play", card, *arg]:
                if card not in cards or not (r.has(X_PLAY) or (len(w) == 2 and not r.said)):
                    return False
                if arg and ":" in arg[0]:
                    s, _, target = arg[0].partition(":")
                    seat = seat_of_word(s)
                    return (not seats or seat in seats) and (target in cards or len(cards) == 1)
                return not arg or not places or arg[0] in places
            case ["pass"]:
                return r.has(X_PASS)
            case ["accept"]:
                return r.has(X_ACCEPT) and not r.denied & {X_ACCEPT}
            case ["decline"]:
                return r.has(X_DECLINE) or bool(r.denied & {X_ACCEPT})
            case ["duel", s, target]:
                if not r.has(X_DUEL) or (seats and seat_of_word(s) not in seats):
                    return False
                kind, _, arg = target.partition(":")
                if r.has(X_STAR):
                    return target == "star"
                if r.has(X_HORSESHOE):
                    return target == "horseshoe"
                if cards:
                    return kind == "card" and arg in cards
                if r.numbers:
                    return kind == "money" and int(arg) in r.numbers
                return True
            case ["swap_stack", pid]:
                return r.has(X_SWAP) and pid in places
            case ["peek" | "exchange" | "buy_discard" | "gem_roll"]:
                return r.has(_X_HEADS[head])
            case ["choose", option]:
                seat = seat_of_word(option)
                if seat is not None:
                    return seat in seats
                if option in places or option in cards:
                    return True
                options = [n.split()[1] for n in ctx.legal if n.startswith("choose ")]
                return len(r.numbers) == 1 and 1 <= r.numbers[0] <= len(options) and options[r.numbers[0] - 1] == option
            case ["roll"]:
                prompt = getattr(getattr(ctx.view, "x", None), "prompt", None)
                return prompt is not None and prompt.kind in ("danger", "duel") and r.has(X_ROLL)
            case ["flip" | "flip_roll"]:
                return getattr(ctx.view, "phase", None) == "phase3" and r.has(X_FLIP) and (
                    (head == "flip_roll") == r.has(X_ROLL))
            case ["end_phase"]:
                return getattr(ctx.view, "phase", None) in ("phase2", "phase3") and r.has(X_END, X_DONE)
        return False

    def _offer(self, r: XReading, ctx: ParseContext) -> ParseResult:
        others = [s for s in dict.fromkeys(r.seats) if s != ctx.seat]
        if len(others) != 1 or ctx.seat is None:
            targets = sorted({n.split()[1] for n in ctx.legal if n.startswith("offer ")})
            return Ambiguous(tuple(n for n in ctx.legal if n.startswith("offer ") and n.split()[1] in targets)[:6],
                             "player")
        other = others[0]
        players = ctx.view.x.players
        mine = {i.split("#")[0] for i in players[ctx.seat].cards}
        theirs = {i.split("#")[0] for i in players[other].cards}
        give = [c for c in r.cards if c in mine]
        get = [c for c in r.cards if c in theirs and c not in give]
        sums = [str(n) for n in r.numbers if n >= 100]
        if sums:
            (get if give and not get else give).append(sums[0])
        if not give and not get:
            return NotLegal("empty_offer")
        return Parsed((f"offer seat{other} {','.join(give) or '-'} for {','.join(get) or '-'}",))


def seat_of_word(word: str) -> int | None:
    return int(word[4:]) if word.startswith("seat") and word[4:].isdigit() else None
