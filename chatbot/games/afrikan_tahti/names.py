"""Afrikan Tähti names in chat: seat and token markers, places as phrases, money, token kinds,
where a route dot lies, and (Retkikunnat) cards, dice faces, duel targets and offer items.

Place names are translated as whole phrases ("to Cairo" -> "Kairoon", "in Cairo" -> "Kairossa"):
Finnish case forms come from the catalog (vocabulary.md §3), never from gluing endings. A name this
module does not know (an id the tables lack) is shown as it is, so a new card or token reads as its
id instead of breaking a message.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, cast

from chatbot.core.gameui import RenderContext
from chatbot.core.i18n import N_, ListStyle, Translator, translator
from chatbot.games.afrikan_tahti import cards_generated as cards
from chatbot.games.afrikan_tahti.card_forms_generated import FI_FORMS
from engines.afrikan_tahti.base.rules import land_dests, may_board_here, may_land, move_menu
from engines.afrikan_tahti.board import HAZARDS, LAND, LEGS, LEGS_FROM, PLACE_SET, PORTS, SEA_DOTS, Leg
from engines.afrikan_tahti.model import (
    QUICK_START_CASH,
    SEA_FARE,
    MoveMenu,
    Options,
    Pawn,
    View,
    chosen_path,
    holds_winning_item,
    seat_of,
)
from engines.afrikan_tahti.retkikunnat.predicates import sea_reach


def option_parts(o: Any, t: Translator) -> list[str]:
    """The options in force that differ from the defaults ("Retkikunnat", "pikapeli"); the
    expansion is always named, so the table tells which game is played."""
    d = Options()
    parts = [t.gettext("Retkikunnat") if o.expansion else t.gettext("base game")]
    if o.quick_game:
        parts.append(t.gettext("quick game"))
    if o.response_window_seconds != d.response_window_seconds:
        parts.append(t.gettext("answer time {n} s").format(n=o.response_window_seconds))
    if o.max_rounds != d.max_rounds:
        parts.append(t.gettext("round limit {n}").format(n=o.max_rounds))
    if o.emerald_value != d.emerald_value:
        parts.append(t.gettext("emerald {amount}").format(amount=money(o.emerald_value, t)))
    if o.start_place != d.start_place:
        parts.append(t.gettext("random start places"))
    if o.character_assignment != d.character_assignment:
        parts.append(t.gettext("random characters"))
    if o.capetown_bonus != d.capetown_bonus:
        parts.append(t.gettext("Capetown bonus {amount}").format(amount=money(o.capetown_bonus, t)))
    return parts


def quick_game_offer(t: Translator) -> str:
    """The lobby's offer of the quick game to a table new to the game, and what it changes (spec
    §3.4: one token a place, more money and cards at the start, a smaller expedition)."""
    return t.gettext(
        "💡 New to Afrikan Tähti here? The quick game fits an evening: one token on each place instead of "
        "two, {cash} and two expedition cards each at the start, and two of each symbol make an "
        "expedition. Press “⚡ Quick game” or write “options quick_game=yes”."
    ).format(cash=money(QUICK_START_CASH, t))


def title(t: Translator) -> str:
    """The game's display name in the recipient's language."""
    return "⭐ " + t.gettext("Afrikan Tähti")


# Emoji markers of the seats; the board picture uses the same colours.
SEAT_MARKERS = ("🔴", "🔵", "🟢", "🟡", "🟣", "🟠")
TOKEN_MARKERS = {
    "expedition": "🎒",
    "danger": "🎭",
    "star": "⭐",
    "ruby": "💎",
    "emerald": "💎",
    "topaz": "💎",
    "robber": "🦹",
    "horseshoe": "🐎",
    "blank": "▫️",
}
# The Finnish display order of token kinds in the table summary: valuable first.
TOKEN_ORDER = ("star", "ruby", "emerald", "topaz", "horseshoe", "robber", "blank")

# --------------------------------------------------------------------------------------------------
# Place names as phrases: name, to, in/at, from, via, toward
# --------------------------------------------------------------------------------------------------

PLACE_TEXTS: dict[str, tuple[str, str, str, str, str, str]] = {
    "cairo": (
        N_("Cairo"),
        N_("to Cairo"),
        N_("in Cairo"),
        N_("from Cairo"),
        N_("via Cairo"),
        N_("toward Cairo"),
    ),
    "tangier": (
        N_("Tangier"),
        N_("to Tangier"),
        N_("in Tangier"),
        N_("from Tangier"),
        N_("via Tangier"),
        N_("toward Tangier"),
    ),
    "addis_abeba": (
        N_("Addis Abeba"),
        N_("to Addis Abeba"),
        N_("in Addis Abeba"),
        N_("from Addis Abeba"),
        N_("via Addis Abeba"),
        N_("toward Addis Abeba"),
    ),
    "ain_galaka": (
        N_("Ain-Galaka"),
        N_("to Ain-Galaka"),
        N_("in Ain-Galaka"),
        N_("from Ain-Galaka"),
        N_("via Ain-Galaka"),
        N_("toward Ain-Galaka"),
    ),
    "bahr_el_ghasal": (
        N_("Bahr El Ghasal"),
        N_("to Bahr El Ghasal"),
        N_("in Bahr El Ghasal"),
        N_("from Bahr El Ghasal"),
        N_("via Bahr El Ghasal"),
        N_("toward Bahr El Ghasal"),
    ),
    "canary_islands": (
        N_("Canary Islands"),
        N_("to the Canary Islands"),
        N_("on the Canary Islands"),
        N_("from the Canary Islands"),
        N_("via the Canary Islands"),
        N_("toward the Canary Islands"),
    ),
    "cape_guardafui": (
        N_("Cape Guardafui"),
        N_("to Cape Guardafui"),
        N_("at Cape Guardafui"),
        N_("from Cape Guardafui"),
        N_("via Cape Guardafui"),
        N_("toward Cape Guardafui"),
    ),
    "cape_st_marie": (
        N_("Cape St. Marie"),
        N_("to Cape St. Marie"),
        N_("at Cape St. Marie"),
        N_("from Cape St. Marie"),
        N_("via Cape St. Marie"),
        N_("toward Cape St. Marie"),
    ),
    "cape_verde": (
        N_("Cape Verde"),
        N_("to Cape Verde"),
        N_("at Cape Verde"),
        N_("from Cape Verde"),
        N_("via Cape Verde"),
        N_("toward Cape Verde"),
    ),
    "capetown": (
        N_("Capetown"),
        N_("to Capetown"),
        N_("in Capetown"),
        N_("from Capetown"),
        N_("via Capetown"),
        N_("toward Capetown"),
    ),
    "congo": (
        N_("Congo"),
        N_("to Congo"),
        N_("in Congo"),
        N_("from Congo"),
        N_("via Congo"),
        N_("toward Congo"),
    ),
    "dar_fur": (
        N_("Dar-Fur"),
        N_("to Dar-Fur"),
        N_("in Dar-Fur"),
        N_("from Dar-Fur"),
        N_("via Dar-Fur"),
        N_("toward Dar-Fur"),
    ),
    "daressalam": (
        N_("Daressalam"),
        N_("to Daressalam"),
        N_("in Daressalam"),
        N_("from Daressalam"),
        N_("via Daressalam"),
        N_("toward Daressalam"),
    ),
    "dragon_mountain": (
        N_("Dragon Mountain"),
        N_("to Dragon Mountain"),
        N_("on Dragon Mountain"),
        N_("from Dragon Mountain"),
        N_("via Dragon Mountain"),
        N_("toward Dragon Mountain"),
    ),
    "egypt": (
        N_("Egypt"),
        N_("to Egypt"),
        N_("in Egypt"),
        N_("from Egypt"),
        N_("via Egypt"),
        N_("toward Egypt"),
    ),
    "gold_coast": (
        N_("Gold Coast"),
        N_("to the Gold Coast"),
        N_("on the Gold Coast"),
        N_("from the Gold Coast"),
        N_("via the Gold Coast"),
        N_("toward the Gold Coast"),
    ),
    "kandjama": (
        N_("Kandjama"),
        N_("to Kandjama"),
        N_("in Kandjama"),
        N_("from Kandjama"),
        N_("via Kandjama"),
        N_("toward Kandjama"),
    ),
    "lake_victoria": (
        N_("Lake Victoria"),
        N_("to Lake Victoria"),
        N_("at Lake Victoria"),
        N_("from Lake Victoria"),
        N_("via Lake Victoria"),
        N_("toward Lake Victoria"),
    ),
    "morocco": (
        N_("Morocco"),
        N_("to Morocco"),
        N_("in Morocco"),
        N_("from Morocco"),
        N_("via Morocco"),
        N_("toward Morocco"),
    ),
    "mozambique": (
        N_("Mozambique"),
        N_("to Mozambique"),
        N_("in Mozambique"),
        N_("from Mozambique"),
        N_("via Mozambique"),
        N_("toward Mozambique"),
    ),
    "ocomba": (
        N_("Ocomba"),
        N_("to Ocomba"),
        N_("in Ocomba"),
        N_("from Ocomba"),
        N_("via Ocomba"),
        N_("toward Ocomba"),
    ),
    "sahara": (
        N_("Sahara"),
        N_("to Sahara"),
        N_("in Sahara"),
        N_("from Sahara"),
        N_("via Sahara"),
        N_("toward Sahara"),
    ),
    "sierra_leone": (
        N_("Sierra Leone"),
        N_("to Sierra Leone"),
        N_("in Sierra Leone"),
        N_("from Sierra Leone"),
        N_("via Sierra Leone"),
        N_("toward Sierra Leone"),
    ),
    "slave_coast": (
        N_("Slave Coast"),
        N_("to the Slave Coast"),
        N_("on the Slave Coast"),
        N_("from the Slave Coast"),
        N_("via the Slave Coast"),
        N_("toward the Slave Coast"),
    ),
    "st_helena": (
        N_("St. Helena"),
        N_("to St. Helena"),
        N_("on St. Helena"),
        N_("from St. Helena"),
        N_("via St. Helena"),
        N_("toward St. Helena"),
    ),
    "suakin": (
        N_("Suakin"),
        N_("to Suakin"),
        N_("in Suakin"),
        N_("from Suakin"),
        N_("via Suakin"),
        N_("toward Suakin"),
    ),
    "tamatave": (
        N_("Tamatave"),
        N_("to Tamatave"),
        N_("in Tamatave"),
        N_("from Tamatave"),
        N_("via Tamatave"),
        N_("toward Tamatave"),
    ),
    "timbuktu": (
        N_("Timbuktu"),
        N_("to Timbuktu"),
        N_("in Timbuktu"),
        N_("from Timbuktu"),
        N_("via Timbuktu"),
        N_("toward Timbuktu"),
    ),
    "tripoli": (
        N_("Tripoli"),
        N_("to Tripoli"),
        N_("in Tripoli"),
        N_("from Tripoli"),
        N_("via Tripoli"),
        N_("toward Tripoli"),
    ),
    "tunis": (
        N_("Tunis"),
        N_("to Tunis"),
        N_("in Tunis"),
        N_("from Tunis"),
        N_("via Tunis"),
        N_("toward Tunis"),
    ),
    "victoria_falls": (
        N_("Victoria Falls"),
        N_("to Victoria Falls"),
        N_("at Victoria Falls"),
        N_("from Victoria Falls"),
        N_("via Victoria Falls"),
        N_("toward Victoria Falls"),
    ),
    "whalefish_bay": (
        N_("Whalefish Bay"),
        N_("to Whalefish Bay"),
        N_("at Whalefish Bay"),
        N_("from Whalefish Bay"),
        N_("via Whalefish Bay"),
        N_("toward Whalefish Bay"),
    ),
}

NAME, TO, AT, FROM, VIA, TOWARD = range(6)

#: the chat side's step after a roll that a button (or "mene Kongoon" before the roll) carries:
#: ``toward <place>`` is the move to the place when the die reaches it, else as near to it as the die
#: allows (:func:`.buttons.toward`)
TOWARD_STEP = "toward"


def place(pid: str, t: Translator, form: int = NAME) -> str:
    """A place as a phrase in the recipient's language: ``place("cairo", t, TO)`` is "to Cairo"
    in English and "Kairoon" in Finnish. An id the table lacks is shown as it is."""
    texts = PLACE_TEXTS.get(pid)
    return t.gettext(texts[form]) if texts else pid


def money(amount: int, t: Translator) -> str:
    return t.gettext("£{amount}").format(amount=t.format_number(amount))


def token_word(kind: str, t: Translator) -> str:
    """A token kind's name; a kind this module does not know (the expansion's) as it is."""
    names = {
        "star": t.pgettext("token", "Star of Africa"),
        "ruby": t.pgettext("token", "ruby"),
        "emerald": t.pgettext("token", "emerald"),
        "topaz": t.pgettext("token", "topaz"),
        "robber": t.pgettext("token", "robber"),
        "horseshoe": t.pgettext("token", "horseshoe"),
        "blank": t.pgettext("token", "blank"),
        "expedition": t.pgettext("token", "backpack"),
        "danger": t.pgettext("token", "mask"),
    }
    return names.get(kind, kind)


def token_name(kind: str, t: Translator) -> str:
    """The name with its marker, for event lines: "💎 ruby"."""
    return f"{TOKEN_MARKERS.get(kind, '🪙')} {token_word(kind, t)}"


def kind_of(content_id: str) -> str:
    """ "tok:t5:ruby" -> "ruby"."""
    return content_id.rsplit(":", 1)[-1]


def captive_text(hazard: str, t: Translator) -> str:
    if hazard == "pirates":
        return t.gettext("held by the pirates")
    return t.gettext("held by the bedouins")


def dot_text(node: str, t: Translator) -> str:
    """Where a pawn on a land dot stands: "on the route Sahara–Dar-Fur", "at the bedouins' dot"."""
    if node in HAZARDS:
        return (
            t.gettext("at the pirates' dot")
            if HAZARDS[node] == "pirates"
            else t.gettext("at the bedouins' dot")
        )
    if node in SEA_DOTS:
        return t.gettext("at sea")
    ends = [place(p, t) for p in dot_ends(node)]
    if len(ends) >= 3:
        return t.gettext("at the crossroads {places}").format(places="–".join(ends))
    if len(ends) == 2:
        return t.gettext("on the route {places}").format(places="–".join(ends))
    return t.gettext("on a route dot")


def node_text(node: str | None, t: Translator) -> str:
    """A node as a location phrase: "in Congo", "on the route Sahara–Dar-Fur"."""
    if node is None:
        return t.gettext("not on the board")
    return place(node, t, AT) if node in PLACE_SET else dot_text(node, t)


# --------------------------------------------------------------------------------------------------
# The board as the texts name it: the move in progress, the places ahead of a dot
# --------------------------------------------------------------------------------------------------


def move_menu_of(view: View, seat: int) -> MoveMenu | None:
    """The menu of the move in progress for ``seat`` (where the move may end, every path there, the
    canonical one first), from the view; None when no move is in progress.

    The base game's is the engine's own ``base.rules.move_menu``. Retkikunnat's is built here from
    the same public facts the engine reads (``retkikunnat.predicates.menu``): the allowance on land
    and at sea (rain, Sea captain), early stops where another pawn stands (M3c), and the sea nodes
    a sail may end on. The view does not say the terrain of an extra-step card, so both terrains
    are listed; the legal actions say which moves exist, and this menu only tells their paths."""
    me = view.pawns[seat]
    move = view.move
    if move is None or me.node is None:
        return None
    # PawnView carries Pawn's fields; the engine asks the pawn itself whether it holds the Star
    holding = holds_winning_item(cast(Pawn, me))
    x = view.x
    if x is None:
        # the sea fare only decides the menu's boardings, which no text here reads
        return move_menu(me.node, move, me.cash, holding, view.options, SEA_FARE)
    land_steps, sea_steps = x.allowance or (move.steps, move.steps)
    node, options = me.node, view.options
    others = frozenset(p.node for s, p in enumerate(view.pawns) if s != seat and p.node is not None)
    visited = frozenset(move.visited)
    pass_through = options.hazard_trigger == "pass_through"
    voyage = me.voyage
    if voyage is not None:
        if move.steps <= 0:
            return MoveMenu((), (), False)
        path = LEGS[(voyage.origin, voyage.dest)].path
        end = sea_reach(path, voyage.at, sea_steps, visited, pass_through)
        stops = [i for i in range(voyage.at + 1, end) if path[i] in others]
        sea = tuple((path[i], None, i - voyage.at) for i in (*stops, end) if i > voyage.at)
        return MoveMenu((), (), node in others, sea=sea, sea_steps=sea_steps)
    dests = (
        land_dests(node, land_steps, visited, holding, options, others & frozenset(LAND))
        if may_land(move, options)
        else ()
    )
    boards: list[str] = []
    targets: list[tuple[str, str | None, int]] = []
    fare = x.sea_fare if x.sea_fare is not None else SEA_FARE
    if node in PORTS and may_board_here(move, options) and me.cash >= fare:
        for dest in LEGS_FROM[node]:
            path = LEGS[(node, dest)].path
            if path[1] in visited:
                continue
            boards.append(dest)
            end = sea_reach(path, 0, sea_steps, visited, pass_through)
            targets.extend((path[i], dest, i) for i in range(1, end) if path[i] in others)
    return MoveMenu(
        dests,
        tuple(boards),
        node in PLACE_SET or node in others,
        sea=tuple(targets),
        land_steps=land_steps,
        sea_steps=sea_steps,
    )


def path_of(menu: MoveMenu | None, to: str, via: str | None) -> tuple[str, ...]:
    """The path ``move to [via]`` takes over land (the engine's ``model.chosen_path``); () when none."""
    return (chosen_path(menu.paths(to), via) if menu is not None else None) or ()


def sea_leg(view: View, seat: int, menu: MoveMenu | None, to: str) -> tuple[Leg, int, int] | None:
    """The sea leg a ``move to`` sails (on along the pawn's voyage, or the leg it boards here), the
    index on the leg's path it starts from and the index of ``to``; None when ``to`` is no sail."""
    target = menu.sea_target(to) if menu is not None else None
    me = view.pawns[seat]
    if target is None or me.node is None:
        return None
    _node, leg_dest, steps = target
    if leg_dest is not None:
        return LEGS[(me.node, leg_dest)], 0, steps
    v = me.voyage
    return (LEGS[(v.origin, v.dest)], v.at, v.at + steps) if v is not None else None


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
# Retkikunnat: cards, dice, duel targets, offers
# --------------------------------------------------------------------------------------------------

FACE_MARKERS = {"spears": "⚔️", "coin": "🪙", "boot": "🥾", "gem": "💎", "skull": "💀", "blank": "▫️"}
DECK_NAMES = {"expedition": N_("expedition"), "event": N_("event"), "danger": N_("danger")}


def cid(inst: str) -> str:
    """A card id from a card instance ("rifle#1" -> "rifle")."""
    return inst.split("#", 1)[0]


def card_name(inst: str, t: Translator) -> str:
    """Any card's or character's name in the recipient's language."""
    i = cid(inst)
    for table in (cards.EXPEDITION_CARDS, cards.EVENT_CARDS, cards.DANGER_CARDS, cards.CHARACTERS):
        if i in table:
            return t.gettext(table[i][0])
    return i


def card_text(inst: str, t: Translator) -> str:
    i = cid(inst)
    for table in (cards.EXPEDITION_CARDS, cards.EVENT_CARDS, cards.DANGER_CARDS, cards.CHARACTERS):
        if i in table:
            return t.gettext(table[i][1])
    return ""


def face_name(face: str, t: Translator) -> str:
    return f"{FACE_MARKERS.get(face, '')}{t.gettext(cards.FACES[face])}" if face in cards.FACES else face


def dice_text(dice: Sequence[str]) -> str:
    return " ".join(FACE_MARKERS.get(f, f) for f in dice)


def requires_text(requires: Sequence[tuple[str, int]], t: Translator) -> str:
    return t.format_list([f"{int(n)}× {face_name(f, t)}" for f, n in requires])


def names_list(seats: Sequence[int], ctx: RenderContext, style: ListStyle = "standard") -> str:
    return ctx.t.format_list([ctx.name(s) for s in seats], style=style)


def target_text(target: str, t: Translator) -> str:
    """A duel target: star | horseshoe | card:<id> | money:<n>."""
    kind, _, arg = target.partition(":")
    if target == "star":
        return t.pgettext("token", "Star of Africa")
    if target == "horseshoe":
        return t.pgettext("token", "horseshoe")
    if kind == "card":
        return card_name(arg, t)
    if kind == "money" and arg.isdigit():
        return money(int(arg), t)
    return target


def items_text(items: Sequence[str], t: Translator) -> str:
    """Offer items: card ids and one sum; nothing at all reads "nothing"."""
    if not items:
        return t.gettext("nothing")
    return t.format_list([money(int(i), t) if i.isdigit() else card_name(i, t) for i in items])


def card_object(inst: str, t: Translator) -> str:
    """A card's name as the object of a Finnish verb ("saisi Mekaanikon"): the genitive-like
    accusative from the card's known forms; the name itself in other languages or when no form is
    known (DESIGN.md §10: inflect only what is known)."""
    name = card_name(inst, t)
    forms = FI_FORMS.get(cid(inst), ()) if t.lang == "fi" else ()
    return forms[1] if len(forms) > 1 and forms[0] == name else name


def offer_text(name: str, other: str, give: Sequence[str], get: Sequence[str], t: Translator) -> str:
    """ "🤝 Anna tarjoaa kauppaa: Bertta saisi Mekaanikon ja antaisi 200 £." One side may be empty."""

    def objects(items: Sequence[str]) -> str:
        return t.format_list([money(int(i), t) if i.isdigit() else card_object(i, t) for i in items])

    values = {
        "name": name,
        "other": other,
        "give": items_text(give, t),
        "get": items_text(get, t),
        "give_obj": objects(give),
        "get_obj": objects(get),
    }
    if not get:
        # TRANSLATORS: {give_obj} is {give} as the object of a verb (Finnish: "Mekaanikon")
        return t.gettext("🤝 {name} offers {other} {give} for nothing.").format(**values)
    if not give:
        # TRANSLATORS: {get_obj} is {get} as the object of a verb (Finnish: "Mekaanikon")
        return t.gettext("🤝 {name} asks {other} for {get} and offers nothing for it.").format(**values)
    # TRANSLATORS: {give_obj} and {get_obj} are {give} and {get} as objects of a verb ("Mekaanikon")
    return t.gettext("🤝 {name} offers {other} {give} for {get}.").format(**values)


def option_text(option: str, ctx: RenderContext) -> str:
    seat = seat_of(option)
    if seat is not None:
        return ctx.name(seat)
    if option in PLACE_SET:
        return place(option, ctx.t)
    if option == "buy":
        return ctx.t.gettext("buy")
    return card_name(option, ctx.t)


@lru_cache(maxsize=1)
def _card_names() -> re.Pattern[str]:
    """Every card and character name in Finnish and English, the longest first (so "Vanha kartta"
    is one name, not "kartta" in it), as whole words."""
    found = {
        translator(lang).gettext(name)
        for table in (cards.CHARACTERS, cards.EXPEDITION_CARDS, cards.EVENT_CARDS, cards.DANGER_CARDS)
        for name, _text in table.values()
        for lang in ("fi", "en")
    }
    alternatives = "|".join(re.escape(n) for n in sorted(found, key=len, reverse=True))
    return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)")


def cards_in(text: str) -> list[str]:
    """Every card or character named in a rendered text, in order (for the no-leak check)."""
    return _card_names().findall(text)


def offer_items(word: str) -> tuple[str, ...]:
    """The items of one side of an offer notation: "-" is nothing, else comma-separated."""
    return () if word == "-" else tuple(word.split(","))
