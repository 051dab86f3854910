"""Coloretto Amazonas: free Finnish or English text -> action notations (rules spec §3 and §8).

The parser matches only against the actions legal for the speaker now (``ctx.legal``) and reads the
rest from the speaker's view (``ctx.view``: the hand in display order, the phase, a pending gift).
The phase decides what a command means (spec §8.5): in ``TURN`` a card is played or given, in
``GIFT`` the receiver accepts or refuses and names the neighbour card to discard.

Reading order:

1. The vocabulary: :data:`FI_ANIMALS` / :data:`EN_ANIMALS` (spec §8.2), colours and nouns (§8.3) and
   :data:`WORDS`, the verbs (§8.1). Animal names are the game's own entities, so their case forms
   are listed here (Voikko does not know "punaara" or "kapybara"), and so are the forms of verbs and
   nouns that the shared word-form table lacks, so that both lemmatiser backends read the same.
2. :class:`Reading`: what a message says, from the items of :meth:`Lexicon.scan`: verbs said and
   denied, the animals, colours and hand positions named, and the receivers.
3. :class:`ColorettoParser`: one method per phase, each turning a reading into a ``ParseResult``.

Reason codes in ``NotLegal``: the engine's (``not_your_turn``, ``game_over``, ``gift_pending``,
``not_in_hand``, ``give_self``, ``protected``, ``no_gift``, ``not_neighbour``, ``not_in_row``) and the
parser's own: ``wrong_row`` (params ``kind``, ``colour``: the named row), ``no_such_position``
(``position``, ``count``), ``no_colour_in_hand`` (``colour``) and ``unknown_animal`` (``word``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from chatbot.core.nlp import NEG, SEP, Item, Lemmatizer, Lexicon, fold, match_seat
from chatbot.core.parsing import Ambiguous, NotLegal, NotUnderstood, ParseContext, Parsed, ParseResult

TURN, GIFT, OVER = "TURN", "GIFT", "OVER"  # the engine's phases
COLOURS = ("B", "P", "R", "G")
NEIGHBOURS = {"B": ("P",), "P": ("B", "R"), "R": ("P", "G"), "G": ("R",)}
HAND_SIZE = 3

# --------------------------------------------------------------------------------------------------
# 1. Vocabulary
# --------------------------------------------------------------------------------------------------

# kind -> (nominative, genitive, partitive) of the name and of each alias (spec §8.2)
FI_ANIMALS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "B1": (("amazonindelfiini", "amazonindelfiinin", "amazonindelfiiniä"), ("delfiini", "delfiinin", "delfiiniä"),
           ("jokidelfiini", "jokidelfiinin", "jokidelfiiniä"), ("boto", "boton", "botoa")),
    "B2": (("piraija", "piraijan", "piraijaa"),),
    "B3": (("sähköankerias", "sähköankeriaan", "sähköankeriasta"), ("ankerias", "ankeriaan", "ankeriasta")),
    "B4": (("arapaima", "arapaiman", "arapaimaa"), ("piraruku", "pirarukun", "pirarukua")),
    "B5": (("amazoninmanaatti", "amazoninmanaatin", "amazoninmanaattia"), ("manaatti", "manaatin", "manaattia"),
           ("lamantiini", "lamantiinin", "lamantiinia")),
    "P1": (("punaara", "punaaran", "punaaraa"), ("ara", "aran", "araa"), ("papukaija", "papukaijan", "papukaijaa")),
    "P2": (("tukaani", "tukaanin", "tukaania"),),
    "P3": (("harpyija", "harpyijan", "harpyijaa"), ("kotka", "kotkan", "kotkaa")),
    "P4": (("kolibri", "kolibrin", "kolibria"),),
    "R1": (("anakonda", "anakondan", "anakondaa"), ("käärme", "käärmeen", "käärmettä")),
    "R2": (("kaimaani", "kaimaanin", "kaimaania"), ("alligaattori", "alligaattorin", "alligaattoria"),
           ("krokotiili", "krokotiilin", "krokotiilia")),
    "R3": (("leguaani", "leguaanin", "leguaania"), ("lisko", "liskon", "liskoa")),
    "G1": (("jaguaari", "jaguaarin", "jaguaaria"),),
    "G2": (("laiskiainen", "laiskiaisen", "laiskiaista"),),
    "G3": (("tapiiri", "tapiirin", "tapiiria"),),
    "G4": (("kapybara", "kapybaran", "kapybaraa"), ("vesisika", "vesisian", "vesisikaa")),
    "G5": (("nuolimyrkkysammakko", "nuolimyrkkysammakon", "nuolimyrkkysammakkoa"),
           ("myrkkysammakko", "myrkkysammakon", "myrkkysammakkoa"), ("sammakko", "sammakon", "sammakkoa")),
    "G6": (("hämähäkkiapina", "hämähäkkiapinan", "hämähäkkiapinaa"), ("apina", "apinan", "apinaa")),
}
EN_ANIMALS: dict[str, tuple[str, ...]] = {
    "B1": ("amazon river dolphin", "river dolphin", "dolphin", "boto"),
    "B2": ("piranha",),
    "B3": ("electric eel", "eel"),
    "B4": ("arapaima", "pirarucu"),
    "B5": ("amazonian manatee", "manatee"),
    "P1": ("scarlet macaw", "macaw", "parrot"),
    "P2": ("toucan",),
    "P3": ("harpy eagle", "harpy", "eagle"),
    "P4": ("hummingbird",),
    "R1": ("anaconda", "snake"),
    "R2": ("caiman", "alligator", "crocodile"),
    "R3": ("iguana", "lizard"),
    "G1": ("jaguar",),
    "G2": ("sloth",),
    "G3": ("tapir",),
    "G4": ("capybara",),
    "G5": ("poison dart frog", "dart frog", "frog"),
    "G6": ("spider monkey", "monkey"),
}


def noun_forms(nominative: str, genitive: str, partitive: str) -> tuple[str, ...]:
    """The case forms of a noun that commands use, from its three principal forms: the local cases,
    the translative and the plural hang on the genitive stem (tukaani-lle, sähköankeriaa-lle,
    laiskiaise-lle); the partitive's last letter gives the vowel harmony. Over-generating is harmless:
    only a player's words are looked up here. (A general helper: it could live in ``nlp``.)"""
    stem, a = genitive[:-1], partitive[-1] if partitive[-1] in "aä" else "a"
    forms = {nominative, genitive, partitive, stem + "t", stem + "ni", stem + "ksi"}
    forms |= {stem + ending for ending in ("lle", "lt" + a, "ll" + a, "ss" + a, "st" + a)}
    if nominative[-1] in "aeiouyäö":
        forms.add(nominative + nominative[-1] + "n")  # illative of a vowel stem: tukaaniin, piraijaan
    return tuple(sorted(forms))


KIND, COLOUR, ROW_COLOUR = "kind:", "colour:", "row:"  # prefixes of the concepts that carry a value

# Colour words: forms that point at a row (illative "siniseen", elative "vihreästä", inessive
# "ruskeassa") name the target or source row; the others name a card's colour (spec §8.3, §8.5).
_FI_COLOURS: dict[str, tuple[tuple[str, str, str, str], ...]] = {
    # (nominative, genitive, partitive, illative)
    "B": (("sininen", "sinisen", "sinistä", "siniseen"),),
    "P": (("violetti", "violetin", "violettia", "violettiin"), ("lila", "lilan", "lilaa", "lilaan"),
          ("liila", "liilan", "liilaa", "liilaan"), ("purppura", "purppuran", "purppuraa", "purppuraan"),
          ("sinipunainen", "sinipunaisen", "sinipunaista", "sinipunaiseen")),
    "R": (("ruskea", "ruskean", "ruskeaa", "ruskeaan"), ("ruskee", "ruskeen", "ruskeeta", "ruskeeseen")),
    "G": (("vihreä", "vihreän", "vihreää", "vihreään"), ("vihree", "vihreen", "vihreetä", "vihreeseen")),
}
EN_COLOURS = {"B": ("blue",), "P": ("purple", "violet"), "R": ("brown",), "G": ("green",)}


def _colour_words() -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
    fi: dict[str, tuple[str, ...]] = {}
    for colour, words in _FI_COLOURS.items():
        card: set[str] = set()
        row: set[str] = set()
        for nom, gen, part, ill in words:
            stem, a = gen[:-1], part[-1]
            card |= {nom, gen, part, stem + "t", stem + "lle"}
            row |= {ill, *(stem + e for e in ("st" + a, "ss" + a, "lt" + a, "ll" + a))}
        fi[COLOUR + colour] = tuple(sorted(card))
        fi[ROW_COLOUR + colour] = tuple(sorted(row))
    en = {COLOUR + colour: words for colour, words in EN_COLOURS.items()}
    return fi, en


PLAY, GIVE, THROW, KEEP, TAKE, ACCEPT, YES, REFUSE, REMOVE, AWAY, WANT = (
    "play", "give", "throw", "keep", "take", "accept", "yes", "refuse", "remove", "away", "want",
)
ROW, CARD, HAND, SELF, OPPONENT, FROM = "row", "card", "hand", "self", "opponent", "from"

# Finnish entries are base forms for the lemmatiser, plus the command forms of words that the shared
# word-form table does not know yet (hyväksyä, kieltäytyä, lahjoittaa, rivi …), so that the table
# backend reads them too. Verb table: spec §8.1.
_FI_COLOURS_WORDS, _EN_COLOURS_WORDS = _colour_words()
WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    "fi": {
        PLAY: ("pelata", "laittaa", "lisätä", "sijoittaa", "sijoita", "sijoitan", "sijoitetaan", "panna",
               "pistää", "asettaa", "laitetaan", "pelataan"),
        GIVE: ("antaa", "annetaan", "lahjoittaa", "lahjoita", "lahjoitan", "lahjoitetaan", "tarjota", "tarjoa",
               "tarjoan", "tarjotaan", "ojentaa", "ojenna", "ojennan", "syöttää", "passata", "passaan"),
        THROW: ("heittää", "heitä", "heitän", "heitetään", "viskata"),
        KEEP: ("pitää", "pidä", "pidän", "pidetään"),
        TAKE: ("ottaa", "ota", "otan", "otetaan"),
        ACCEPT: ("hyväksyä", "hyväksy", "hyväksyn", "hyväksytään", "ottaa vastaan", "vastaanottaa",
                 "vastaanotan"),
        YES: ("käy", "ok", "okei", "joo", "juu", "kyllä", "selvä", "sopii", "jep"),
        REFUSE: ("hylätä", "hyljätä", "hylkää", "hylkään", "hylätään", "kieltäytyä", "kieltäydy", "kieltäydyn",
                 "kieltäydytään", "torjua", "torju", "torjun", "torjutaan", "ei kiitos", "kiitos ei"),
        REMOVE: ("poistaa", "poista", "poistan", "poistetaan", "pudottaa", "pudota", "pudotan", "heittää pois",
                 "dumpata"),
        AWAY: ("pois", "roskiin", "poistopakkaan"),
        WANT: ("haluta", "halua", "haluan", "tahtoa"),
        ROW: ("rivi", "rivin", "riviä", "riviin", "rivistä", "riviltä", "rivillä", "rivissä", "rivini", "riviini",
              "riviisi", "rivissäni", "rivistäni", "rivit", "riveistä"),
        CARD: ("kortti", "kortin", "korttia", "kortit", "korttini", "kortiksi", "korttiin", "eläin", "eläimen",
               "eläintä", "eläimeni"),
        HAND: ("käsi", "käden", "kädessä", "kädestä", "käteni", "kädessäni", "kädestäni"),
        SELF: ("itse", "itselle", "itselleni", "itselleen", "minulle", "mulle", "itselläni", "omaksi"),
        OPPONENT: ("vastustaja", "vastustajalle", "vastustajan", "vastustajaa", "vastapelaaja", "vastapelaajalle",
                   "toinen pelaaja", "toiselle pelaajalle"),
        FROM: (),
        **_FI_COLOURS_WORDS,
        **{KIND + kind: tuple(f for names in forms for f in noun_forms(*names)) for kind, forms in FI_ANIMALS.items()},
    },
    "en": {
        PLAY: ("play", "put", "place", "add", "lay", "played"),
        GIVE: ("give", "gave", "pass", "offer", "send", "gift"),
        THROW: ("throw", "toss"),
        KEEP: ("keep", "keep it", "keep for myself"),
        TAKE: ("take", "take it", "took"),
        ACCEPT: ("accept", "accepted", "i accept"),
        YES: ("yes", "ok", "okay", "sure", "fine", "yep", "yeah", "alright"),
        REFUSE: ("refuse", "reject", "decline", "no thanks", "no thank you", "refused"),
        REMOVE: ("remove", "drop", "discard", "ditch", "throw away", "throw out", "get rid of"),
        AWAY: ("away",),
        WANT: ("want",),
        ROW: ("row", "line", "rows"),
        CARD: ("card", "animal"),
        HAND: ("hand",),
        SELF: ("myself", "me"),
        OPPONENT: ("opponent", "other player", "other"),
        FROM: ("from", "out of"),
        **_EN_COLOURS_WORDS,
        **{KIND + kind: names for kind, names in EN_ANIMALS.items()},
    },
}

# Verbs that make a message a game command even from a player who is not to act (weak words such as
# "joo" or a bare animal name are ordinary chat then, and get no answer).
COMMAND_VERBS = frozenset({PLAY, GIVE, THROW, TAKE, ACCEPT, REFUSE, REMOVE})


# --------------------------------------------------------------------------------------------------
# 2. What a message says
# --------------------------------------------------------------------------------------------------


@dataclass(slots=True)
class Reading:
    """The parts of a command. ``names`` are (seats, allative) pairs of the player names said;
    ``positions`` hand positions 1–3 ("toinen kortti", "card 2"); ``row_colours`` colours that name a
    row ("siniseen", "the blue row"); ``card_colours`` colours that name a card ("sininen kortti")."""

    said: set[str] = field(default_factory=set)
    denied: set[str] = field(default_factory=set)
    kinds: list[str] = field(default_factory=list)
    card_colours: list[str] = field(default_factory=list)
    row_colours: list[str] = field(default_factory=list)
    positions: list[int] = field(default_factory=list)
    names: list[tuple[tuple[int, ...], bool]] = field(default_factory=list)
    other_player: bool = False  # "toiselle", "vastustajalle", "my opponent"
    unknown: list[str] = field(default_factory=list)  # words that mean nothing here
    only_negation: bool = False  # "ei", "no": the whole message is a no

    def has(self, *concepts: str) -> bool:
        return any(c in self.said for c in concepts)

    def denies(self, *concepts: str) -> bool:
        return any(c in self.denied for c in concepts)

    @property
    def verbs(self) -> set[str]:
        return (self.said | self.denied) & COMMAND_VERBS

    @property
    def names_card(self) -> bool:
        return bool(self.kinds or self.positions or self.card_colours or self.row_colours)


def read(items: Sequence[Item], names: Sequence[str], lang: str, seat: int | None, hand_size: int) -> Reading:
    r = Reading()
    for index, item in enumerate(items):
        concepts = set(item.concepts)
        word = item.words[-1]
        # Spec §8.5: a word in the allative that is a player's name is a receiver even when it is
        # also a card word ("Aralle" when a player is called Ara).
        allative = fold(word).endswith("lle") or word.endswith(":lle")
        # And a verb that is not the first word but is exactly a player's name is that player
        # ("give Anna the macaw"): a verb at the start of a command is the verb (spec §8.5).
        verb_later = index > 0 and bool(concepts) and concepts <= COMMAND_VERBS | {"filler"}
        if not item.seats and (allative or verb_later) and names:
            seats = match_seat(item.text, names, loose=False)
            if seats:
                item = Item(item.start, item.words, seats=tuple(seats))
                concepts = set()
        if item.seats:
            own_name = seat is not None and item.seats == (seat,) and not allative
            # "Matti: pelaan jaguaarin" names the speaker, not a receiver
            if not own_name:
                r.names.append((item.seats, allative or lang == "en"))
            continue
        if index == 0 and HAND in concepts and len(items) > 1:
            concepts.add(GIVE)  # "hand the capybara to Pekka"
        for concept in concepts:
            if concept.startswith(KIND):
                r.kinds.append(concept.removeprefix(KIND))
            elif concept.startswith(ROW_COLOUR):
                r.row_colours.append(concept.removeprefix(ROW_COLOUR))
            elif concept.startswith(COLOUR):
                colour = concept.removeprefix(COLOUR)
                # "the blue row", "sinisen rivin", "from the blue row": the colour names a row
                nxt = items[index + 1] if index + 1 < len(items) else None
                prev = items[index - 1] if index > 0 else None
                if (nxt is not None and nxt.has(ROW)) or (prev is not None and prev.has(FROM)):
                    r.row_colours.append(colour)
                else:
                    r.card_colours.append(colour)
            else:
                (r.denied if item.negated else r.said).add(concept)
        if item.numbers and not concepts & {HAND}:
            _read_number(r, item, items, index, hand_size)
        if not item.known:
            r.unknown.append(item.text)
    r.only_negation = r.said <= {NEG, SEP, "filler", "own"} and NEG in r.said and not r.denied \
        and not r.names_card and not r.names
    return r


def _read_number(r: Reading, item: Item, items: Sequence[Item], index: int, hand_size: int) -> None:
    """A hand position ("toinen kortti", "kakkonen", "2", "card two", "viimeinen"), or "toiselle":
    the other player (spec §8.5)."""
    near_card = any(0 <= j < len(items) and items[j].has(CARD) for j in (index - 1, index + 1))
    for number in item.numbers:
        if number.case == "allative":
            if number.base == "toinen":
                r.other_player = True
            return
        if number.kind == "numeral" and not near_card:
            continue  # "one" in "the blue one", "kolme" as a count: not a position
        if number.kind in ("side", "edge", "middle"):
            r.positions.extend(p for p in number.positions(max(hand_size, 1)) if p not in r.positions)
        elif number.value >= 1 and number.value not in r.positions:
            r.positions.append(number.value)
        return


# --------------------------------------------------------------------------------------------------
# 3. The parser
# --------------------------------------------------------------------------------------------------


def _kind(card: str) -> str:
    return card[:2]


def _starting(legal: Iterable[str], prefix: str) -> tuple[str, ...]:
    return tuple(a for a in legal if a.startswith(prefix))


def _dedupe(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _one_or_ask(candidates: Sequence[str], missing: str) -> ParseResult:
    candidates = _dedupe(candidates)
    if len(candidates) == 1:
        return Parsed((candidates[0],))
    if not candidates:
        return NotUnderstood()
    return Ambiguous(tuple(candidates), missing)


class ColorettoParser:
    """Understands Coloretto Amazonas commands; one instance per lemmatiser (tests force each backend)."""

    def __init__(self, lemmatizer: Lemmatizer | None = None) -> None:
        self.lexicon = Lexicon(WORDS, lemmatizer)

    def parse(self, text: str, ctx: ParseContext) -> ParseResult:
        view = ctx.view
        hand = tuple(_kind(c) for c in getattr(view, "hand", ()))
        items = self.lexicon.scan(text, ctx.lang, ctx.seat_names)
        r = read(items, ctx.seat_names, ctx.lang, ctx.seat, len(hand))
        phase = getattr(view, "phase", TURN)
        if phase == OVER:
            return NotLegal("game_over") if r.verbs else NotUnderstood()
        if not ctx.legal:
            return NotLegal("not_your_turn") if r.verbs else NotUnderstood()
        if phase == GIFT:
            return self._gift(r, ctx)
        return self._turn(r, ctx, hand)

    # --- TURN: play a card or give it ---------------------------------------------------------

    def _turn(self, r: Reading, ctx: ParseContext, hand: tuple[str, ...]) -> ParseResult:
        view = ctx.view
        players = getattr(view, "players", len(ctx.seat_names))
        gives_to_self = r.has(GIVE) and r.has(SELF) and not r.names and not r.other_player
        giving = r.has(GIVE) or bool(r.names) or r.other_player
        playing = r.has(PLAY, KEEP) or r.has(SELF) or r.has(ROW) or bool(r.row_colours)
        if gives_to_self:
            return NotLegal("give_self")
        if r.has(REMOVE, AWAY) and not giving:
            return NotLegal("no_gift")  # "heitä tukaani pois": discarding exists only in a refusal
        if not (giving or playing or r.has(THROW)):
            if r.has(ACCEPT, REFUSE, REMOVE, TAKE) or r.denies(ACCEPT, TAKE):
                return NotLegal("no_gift")  # "hyväksyn" on one's own turn: there is nothing to answer
            if not r.names_card:
                return NotUnderstood()
        kinds = self._hand_cards(r, hand)
        if isinstance(kinds, NotLegal):
            return kinds
        if kinds is None and len(r.unknown) == 1 and (giving or playing or r.has(THROW)):
            # "anna kilpikonna Matille": the player named an animal this game does not have (one
            # unknown word; a longer unknown phrase is more likely a description, so ask instead)
            return NotLegal("unknown_animal", (("word", r.unknown[0]),))
        if kinds is not None and r.row_colours:
            row = r.row_colours[0]
            wrong = [k for k in kinds if k[0] != row]
            if wrong and len(wrong) == len(kinds):
                return NotLegal("wrong_row", (("kind", wrong[0]), ("colour", row)))
            kinds = [k for k in kinds if k[0] == row]
        choices = kinds if kinds is not None else _dedupe(hand)
        if giving:
            return self._give(r, ctx, choices, players, missing_card=kinds is None)
        plays = [f"play {k}" for k in choices if f"play {k}" in ctx.legal]
        if playing or r.has(THROW):
            return _one_or_ask(plays, "card")
        # A card named without a verb: play it or give it? Ask, offering both (spec §8.5).
        gives = [a for k in choices for a in _starting(ctx.legal, f"give {k} ")]
        return _one_or_ask([*plays, *gives], "action")

    def _hand_cards(self, r: Reading, hand: tuple[str, ...]) -> list[str] | NotLegal | None:
        """The kinds in hand that the command names, ``None`` when it names none (spec §8.3: by
        animal, by hand position or by colour)."""
        if r.kinds:
            held = [k for k in _dedupe(r.kinds) if k in hand]
            if not held:
                return NotLegal("not_in_hand", (("kind", r.kinds[0]),))
            return held
        if r.positions:
            bad = [p for p in r.positions if not 1 <= p <= len(hand)]
            if bad:
                return NotLegal("no_such_position", (("position", bad[0]), ("count", len(hand))))
            return _dedupe(hand[p - 1] for p in r.positions)
        colours = r.card_colours or r.row_colours
        if colours:
            held = _dedupe(k for k in hand if k[0] in colours)
            if not held:
                return NotLegal("no_colour_in_hand", (("colour", colours[0]),))
            return held
        return None

    def _give(self, r: Reading, ctx: ParseContext, kinds: Sequence[str], players: int,
              missing_card: bool) -> ParseResult:
        me = ctx.seat
        others = [s for s in range(players) if s != me]
        allative = [seats for seats, is_allative in r.names if is_allative]
        named = allative or [seats for seats, _ in r.names]
        targets: set[int] = {s for seats in named for s in seats}
        if r.other_player or (not targets and r.has(OPPONENT)):
            targets |= set(others)  # "toiselle": the other seat with two players, else ask which
        if me is not None and targets == {me}:
            return NotLegal("give_self")
        targets.discard(-1 if me is None else me)
        if not targets:
            targets = set(others)
        gives = [f"give {k} seat{s}" for k in kinds for s in sorted(targets)]
        legal = [g for g in gives if g in ctx.legal]
        if not legal:
            holder = getattr(ctx.view, "protection_holder", None)
            if holder in targets:
                return NotLegal("protected", (("seat", holder),))
            return NotUnderstood()
        return _one_or_ask(legal, "card" if missing_card else "receiver")

    # --- GIFT: the receiver accepts or refuses ----------------------------------------------------

    def _gift(self, r: Reading, ctx: ParseContext) -> ParseResult:
        gift = getattr(ctx.view, "gift", None)
        gift_kind = gift.kind if gift is not None else None
        refuses = _starting(ctx.legal, "refuse ")
        # What the receiver names besides the gift itself: the neighbour card to discard.
        kinds = [k for k in _dedupe(r.kinds) if k != gift_kind]
        colours = _dedupe([c for c in r.card_colours if gift_kind is None or c != gift_kind[0]] + r.row_colours)
        accepting = r.has(ACCEPT, TAKE, KEEP, YES, PLAY) or r.denies(REFUSE)
        refusing = (
            r.has(REFUSE, REMOVE, THROW, AWAY) or r.denies(ACCEPT, TAKE, KEEP, WANT, YES) or r.only_negation
        )
        # Names do not matter here: "otan Matin lahjan vastaan" names the giver.
        if r.has(GIVE) or (r.has(PLAY) and kinds and not refusing):
            return NotLegal("gift_pending")  # a turn action while the gift waits for its answer
        if refusing or kinds or colours:
            if accepting and not refusing and not kinds:
                return Parsed(("accept",))
            return self._refuse(ctx, refuses, kinds, colours, gift_kind, ask_accept=not refusing)
        if accepting:
            return Parsed(("accept",)) if "accept" in ctx.legal else NotUnderstood()
        if r.kinds and gift_kind in r.kinds:
            return Ambiguous(tuple(["accept", *refuses]), "action")  # "tukaani": the gift, but what of it?
        return NotUnderstood()

    def _refuse(self, ctx: ParseContext, refuses: Sequence[str], kinds: Sequence[str], colours: Sequence[str],
                gift_kind: str | None, ask_accept: bool) -> ParseResult:
        if not refuses:
            return NotLegal("refuse_no_duplicate", (("kind", gift_kind),))
        candidates = list(refuses)
        if kinds:
            candidates = [a for a in refuses if a.split()[1] in kinds]
            if not candidates:
                kind = kinds[0]
                if gift_kind is not None and kind[0] not in NEIGHBOURS[gift_kind[0]]:
                    return NotLegal("not_neighbour", (("kind", gift_kind), ("remove", kind)))
                return NotLegal("not_in_row", (("remove", kind),))
        if colours:
            narrowed = [a for a in candidates if a.split()[1][0] in colours]
            if not narrowed:
                colour = colours[0]
                if gift_kind is not None and colour not in NEIGHBOURS[gift_kind[0]]:
                    return NotLegal("not_neighbour", (("kind", gift_kind), ("colour", colour)))
                return NotLegal("not_in_row", (("colour", colour),))
            candidates = narrowed
        if ask_accept and not kinds:
            # a bare colour with no verb: accepting is as likely as refusing
            return Ambiguous(tuple(["accept", *candidates]), "action")
        return _one_or_ask(candidates, "neighbour_card")


@lru_cache(maxsize=1)
def _default_parser() -> ColorettoParser:
    return ColorettoParser()


def parse(text: str, ctx: ParseContext) -> ParseResult:
    """Understand ``text`` as Coloretto Amazonas actions legal for the speaker now (module docstring)."""
    return _default_parser().parse(text, ctx)

