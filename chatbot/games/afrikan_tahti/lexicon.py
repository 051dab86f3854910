"""Afrikan Tähti vocabulary (vocabulary.md §1-§4): the words players type, by concept and language.

1. Places: the board's own names in every Finnish case and in English (:data:`PLACE_FI`,
   :data:`PLACE_EN`), matched from tables because Voikko does not know Ocomba or Kandjama; words that
   name several places (:data:`SHARED_PLACE_WORDS`) name all of them, for the parser to ask.
2. The base game's verbs and nouns per concept (:data:`WORDS`) and the concepts that make a message
   a game command (:data:`COMMANDS`); :func:`lexicon_words` adds the place forms.
3. Retkikunnat: its concepts (``X_*``: cards, answers, duels, offers; :data:`EXPANSION_WORDS`) and
   :func:`expansion_lexicon_words`, which adds every card and character name in English and in the
   Finnish forms of vocabulary.md §4 (:mod:`.card_forms_generated`).
"""

from __future__ import annotations

from dataclasses import dataclass

from chatbot.core.nlp import name_forms, tokens
from chatbot.games.afrikan_tahti.card_forms_generated import FI_FORMS
from chatbot.games.afrikan_tahti.cards_generated import CHARACTERS, EVENT_CARDS, EXPEDITION_CARDS
from engines.afrikan_tahti.board import PLACE, PLACES

# --------------------------------------------------------------------------------------------------
# 1. Places
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
    pid: (PLACE[pid]["name_en"], *extra)
    for pid, extra in {
        "cairo": (),
        "tangier": (),
        "addis_abeba": ("Addis Ababa",),
        "ain_galaka": (),
        "bahr_el_ghasal": (),
        "canary_islands": ("Canaries",),
        "cape_guardafui": (),
        "cape_st_marie": ("Cape Sainte Marie",),
        "cape_verde": (),
        "capetown": ("Cape Town",),
        "congo": (),
        "dar_fur": ("Darfur",),
        "daressalam": ("Dar es Salaam",),
        "dragon_mountain": ("Drakensberg", "Dragon Mountains"),
        "egypt": (),
        "gold_coast": (),
        "kandjama": (),
        "lake_victoria": (),
        "morocco": (),
        "mozambique": (),
        "ocomba": (),
        "sahara": (),
        "sierra_leone": (),
        "slave_coast": (),
        "st_helena": ("Saint Helena",),
        "suakin": (),
        "tamatave": (),
        "timbuktu": ("Timbuctoo",),
        "tripoli": (),
        "tunis": (),
        "victoria_falls": (),
        "whalefish_bay": ("Walvis Bay", "Whale Fish Bay"),
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


# --------------------------------------------------------------------------------------------------
# 2. The base game's words
# --------------------------------------------------------------------------------------------------

# Concepts of the game's own words.
ROLL, GO, STOP, SAIL, FREE, FLY, FLIP, BUY, TRY, STAY, SKIP, DONE, HERE, STEP, START, FROM, YES = (
    "roll",
    "go",
    "stop",
    "sail",
    "free",
    "fly",
    "flip",
    "buy",
    "try",
    "stay",
    "skip",
    "done",
    "here",
    "step",
    "start",
    "from",
    "yes",
)
# "Suakinin kautta" names the place before the word, "via Suakin" the place after it.
VIA_AFTER, VIA_BEFORE = "via_after", "via_before"
#: words of the game that no rule of the parser reads (the verb and the places say what is done):
#: money, getting free, setting off ("maksan satasen ja avaan", "heitän vapaaksi"); they tell a move
#: from friends' talk (chatbot.core.certainty)
GAME_NOUN = "game_noun"

# Finnish entries are base forms (the lemmatiser finds heitän, heitetään, heitä…) or surface forms that
# the lemmatiser reads oddly; English entries match through their stems (rolls, rolled -> roll).
WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    "fi": {
        # spoken "nakkaan noppaa", "rollaan"
        ROLL: (
            "heittää",
            "heitto",
            "noppa",
            "nopanheitto",
            "nopalla",
            "heitä",
            "heitän",
            "nakata",
            "nakkaan",
            "rollata",
            "rollaan",
            "rollataan",
        ),
        GO: (
            "liikkua",
            "kävellä",
            "mennä",
            "siirtyä",
            "siirtää",
            "jatkaa",
            "kulkea",
            "edetä",
            "matkustaa",
            "lähteä",
            "suunnata",
            "vaeltaa",
            "meen",
            "mee",
            "liiku",
            "lähden liikkeelle",
            "asti",  # "Kairoon asti"
            "saakka",
        ),
        STOP: ("pysähtyä", "pysähdyn", "pysähdy"),
        SAIL: (
            "purjehtia",
            "laiva",
            "laivalla",
            "seilata",
            "vene",
            "merimatka",
            "laivamatka",
            "laivalippu",
            "lippu",
            "nousta laivaan",
            "merelle",
            "meritse",
            "purjehdus",
            "purjehdi",
        ),
        FREE: ("ilmainen", "ilmaiseksi", "ilmaismatka", "ilman rahaa", "maksutta", "ilmaispurjehdus"),
        GAME_NOUN: (
            "raha",
            "rahaa",
            "satanen",
            "satasen",
            "satku",
            "satkun",
            "punta",
            "puntaa",
            "vapaa",
            "vapaaksi",
            "vapaaks",
            "vapautua",
            "liikkeelle",
            "päästä",
            "pääsen",
        ),
        FLY: (
            "lentää",
            "lento",
            "lentokone",
            "lentäen",
            "lennolla",
            "koneella",
            "lennä",
            "lennän",
            "lentsikka",
            "lentsikalla",
            "lentskari",
            "lentskarilla",
        ),
        FLIP: (
            "kääntää",
            "kääntämättä",  # "jätän kiekon kääntämättä": the abessive denies it (see _spoken)
            "kiekko",
            "merkki",
            "aarre",
            "aarrekiekko",
            "avata",
            "paljastaa",
            "kääntö",
            "käännä",
            "käännän",
        ),
        BUY: ("ostaa", "maksaa"),
        TRY: (
            "yrittää",
            "koettaa",
            "yritys",
            "yritän",
            "yritä",
            "koittaa",
            "koitan",
            "koita",
            "kokeilla",
            "kokeillaan",
        ),
        STAY: (
            "pysyä",
            "odottaa",
            "odotella",
            "jäädä",
            "paikallaan",
            "paikallasi",
            "paikallani",
            "paikoillaan",
            "paikoillasi",
            "paikoillani",
            "en liiku",
            "jään",
            "jää",
        ),
        SKIP: ("ohittaa", "passata", "passaan", "ohi"),
        DONE: (
            "valmis",
            "lopettaa",
            "seuraava",
            "riittää",
            "ei muuta",
            "lopeta vuoro",
            "vuoro loppu",
            "lopetan vuoron",
            "ei kiitos",
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
        GAME_NOUN: ("money", "pounds", "hundred", "loose", "out", "get"),
        FLY: ("fly", "flight", "plane", "airplane", "aeroplane", "by air", "take a plane"),
        FLIP: ("flip", "token", "turn over", "reveal", "open", "turn it over"),
        BUY: ("buy", "pay"),
        TRY: ("try", "attempt"),
        STAY: ("stay", "wait", "stay put", "remain", "don't move", "do not move"),
        SKIP: ("skip", "pass"),
        DONE: (
            "done",
            "end",
            "finish",
            "next",
            "end turn",
            "that's all",
            "nothing",
            "no thanks",
            "end my turn",
        ),
        HERE: ("here", "where i am", "right here"),
        VIA_BEFORE: ("via", "through", "by way of", "past"),
        STEP: ("step", "steps", "dot", "space"),
        START: ("begin", "choose", "pick", "starting", "start in", "start from", "start at"),
        FROM: ("from",),
        YES: ("yes", "yeah", "sure", "yep"),
    },
}

# Concepts that make a message a game command (and not chat), with the action they ask for.
COMMANDS = {
    ROLL: "roll",
    GO: "move",
    STOP: "move",
    SAIL: "board",
    FREE: "free_sail",
    FLY: "fly",
    FLIP: "flip",
    BUY: "flip",
    TRY: "flip_roll",
    STAY: "stay",
    SKIP: "stay",
    DONE: "end_phase",
    HERE: "move",
    START: "start",
    STEP: "move",
    YES: "flip",
}


def lexicon_words() -> dict[str, dict[str, tuple[str, ...]]]:
    """The base parser's lexicon: :data:`WORDS` and every place form."""
    fi_places, en_places = _place_words()
    words: dict[str, dict[str, list[str]]] = {
        lang: {k: list(v) for k, v in table.items()} for lang, table in WORDS.items()
    }
    for lang, forms_of in (("fi", fi_places), ("en", en_places)):
        for form, concepts in forms_of.items():
            for concept in concepts:
                words[lang].setdefault(concept, []).append(form)
    return {lang: {k: tuple(v) for k, v in table.items()} for lang, table in words.items()}


# --------------------------------------------------------------------------------------------------
# 3. Retkikunnat: cards, characters, answers, duels and offers
# --------------------------------------------------------------------------------------------------

(
    X_SELL,
    X_USE,
    X_PLAY,
    X_DISCARD,
    X_HOLD,
    X_UNHOLD,
    X_PASS,
    X_ACCEPT,
    X_DECLINE,
    X_DUEL,
    X_OFFER,
    X_FOR,
    X_CHOOSE,
    X_PEEK,
    X_EXCHANGE,
    X_BUYD,
    X_SWAP,
    X_REROLL,
    X_DONE,
    X_GEMS,
    X_PLUS,
    X_MINUS,
    X_ROLL,
    X_MONEY,
    X_STAR,
    X_HORSESHOE,
    X_FLIP,
    X_END,
    X_ASK,
) = (
    f"x_{n}"
    for n in (
        "sell",
        "use",
        "play",
        "discard",
        "hold",
        "unhold",
        "pass",
        "accept",
        "decline",
        "duel",
        "offer",
        "for",
        "choose",
        "peek",
        "exchange",
        "buyd",
        "swap",
        "reroll",
        "done",
        "gems",
        "plus",
        "minus",
        "roll",
        "money",
        "star",
        "horseshoe",
        "flip",
        "end",
        "ask",
    )
)

EXPANSION_WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    "fi": {
        X_SELL: ("myydä", "myy", "myyn"),
        X_USE: ("käyttää", "käytä", "käytän", "käyttö"),
        X_PLAY: ("pelata", "pelaa", "pelaan", "käsikortti", "käsikorttia", "käsikortin"),
        X_DISCARD: ("poistaa", "poista", "luopua", "heittää pois", "heitä pois", "heitän pois", "pois"),
        X_HOLD: ("säästää", "säästä", "säästän", "älä käytä automaattisesti"),
        X_UNHOLD: ("käytä taas", "käytän taas", "ota käyttöön", "automaattisesti"),
        X_PASS: ("ohittaa", "ohita", "ohitan", "passata", "passaan", "en pelaa", "ei mitään", "ohi"),
        X_ACCEPT: ("hyväksyä", "hyväksy", "hyväksyn", "sopii", "käy", "diili", "kyllä", "ok", "okei"),
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
        X_GEMS: (
            "jalokiviheitto",
            "heitä jalokiviä",
            "jalokivi",
            "jalokiviä",
            "yritän saada kortin",
            "saada kortin",
        ),
        X_PLUS: ("plus", "yksi lisää", "lisää"),
        X_MINUS: ("miinus", "yksi vähemmän", "vähemmän"),
        X_ROLL: ("heittää", "heitä", "heitän", "noppa", "nopat", "vaaranopat"),
        X_MONEY: ("punta", "puntaa", "punnasta", "punnan", "punnalla", "£", "rahaa", "raha"),
        X_STAR: ("tähti", "tähden", "tähteä", "tähdestä", "afrikan tähti", "timantti", "timantin"),
        X_HORSESHOE: ("hevosenkenkä", "hevosenkengän", "hevosenkenkää", "hevosenkengästä"),
        X_FLIP: ("kääntää", "käännä", "käännän", "kiekko", "osta kiekko"),
        X_END: ("lopeta vuoro", "lopetan", "lopeta", "seuraava", "ei muuta", "jatka", "jatkan"),
        X_ASK: ("kysyä", "kysy", "kysy minulta", "kysy minulta taas", "kysy minulta vain", "kysy vain"),
    },
    "en": {
        X_SELL: ("sell",),
        X_USE: ("use",),
        X_PLAY: ("play",),
        X_DISCARD: ("discard", "drop", "get rid of", "throw away"),
        X_HOLD: ("hold", "don't auto-use", "don't auto use", "keep for later"),
        X_UNHOLD: ("unhold", "auto-use", "auto-use again", "auto use", "auto use again", "release"),
        X_PASS: ("pass", "skip", "nothing"),
        X_ACCEPT: ("accept", "yes", "deal", "agree", "ok", "okay"),
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
        X_FLIP: ("flip", "flip the token", "buy the token", "token", "turn over", "turn it over", "reveal"),
        X_END: ("end turn", "end my turn", "next", "that's all", "go on"),
        X_ASK: ("ask", "ask me", "ask me again", "ask me only for", "ask me only"),
    },
}


def expansion_lexicon_words() -> dict[str, dict[str, tuple[str, ...]]]:
    """The expansion parser's lexicon: :data:`EXPANSION_WORDS`, every card and character name, and
    the place forms (a card's target may be a place)."""
    words: dict[str, dict[str, list[str]]] = {
        lang: {k: list(v) for k, v in table.items()} for lang, table in EXPANSION_WORDS.items()
    }
    for cards in (CHARACTERS, EXPEDITION_CARDS, EVENT_CARDS):
        for ident, (name, _text) in cards.items():
            concept = "card:" + ident
            words["en"].setdefault(concept, []).extend((name.rstrip("!"), ident.replace("_", " ")))
            forms = FI_FORMS.get(ident, ())
            for form in forms:  # the parser reads "-" as a space: "Taka-ajatus" = "taka ajatus"
                words["fi"].setdefault(concept, []).extend(dict.fromkeys((form, form.replace("-", " "))))
            if ident in CHARACTERS:  # "olen Lääkärinä", "Seikkailijaksi"
                words["fi"][concept].extend(f for f in name_forms(forms[0]) if "'" not in f)
    fi_places, en_places = _place_words()
    for lang, forms_of in (("fi", fi_places), ("en", en_places)):
        for form, concepts in forms_of.items():
            for concept in concepts:
                if concept.startswith("place:"):
                    words[lang].setdefault(concept, []).append(form)
    return {lang: {k: tuple(v) for k, v in table.items()} for lang, table in words.items()}
