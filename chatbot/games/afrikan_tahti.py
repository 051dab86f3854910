"""Afrikan Tähti in chat: names, rule texts, renderers, buttons and the parser entry point.

Everything on the table is public in the base game except the face-down tokens, which leave the
engine only once flipped, so the group sees every action and gets the buttons too. Renderers take
views only and read fields with defaults, so that the phases, fields and events the Retkikunnat
expansion adds render as a plain generic line instead of breaking the table.

Place names are translated as whole phrases ("to Cairo" -> "Kairoon", "in Cairo" -> "Kairossa"):
Finnish case forms come from the catalog (vocabulary.md §3), never from gluing endings.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chatbot.core.i18n import N_, Translator
from chatbot.core.parsing import ParseContext, ParseResult
from chatbot.games import afrikan_tahti_parser as parser
from chatbot.games.afrikan_tahti_parser import ahead, chosen_path, dot_ends, is_base, move_paths
from chatbot.games.base import GameUI, RenderContext, RuleTopic
from engines.afrikan_tahti import ENGINE
from engines.afrikan_tahti.ai import idle_action
from engines.afrikan_tahti.board import HAZARDS, LEGS, PLACE_SET, SEA_DOTS, node_of
from engines.afrikan_tahti.model import AIR_FARE, FLIP_PRICE, SEA_FARE
from engines.base import BadNotation, Event

# --------------------------------------------------------------------------------------------------
# Rule topics (vocabulary.md §7, base game)
# --------------------------------------------------------------------------------------------------

TOPICS = (
    RuleTopic("afrikan_tahti.overview", N_("Find the Star of Africa and bring it to Tangier or Cairo; the first to arrive wins. A horseshoe turned up after the Star has been found works in its place."),
              ("tavoite", "voittaa", "goal", "aim", "overview"), N_("goal")),
    RuleTopic("afrikan_tahti.turn.base", N_("On your turn choose one: move by land, sea or air, try to flip a token by rolling, or stay. If you stop on a token, you may pay 100 pounds to flip it."),
              ("vuoro", "turn", "siirto", "pysyä", "stay"), N_("the turn")),
    RuleTopic("afrikan_tahti.setup", N_("Everyone gets 300 pounds and starts in Tangier or Cairo. Treasure tokens go face down on the cities, one on each, or two stacked with the expansion."),
              ("alku", "aloitus", "lähtö", "raha", "setup", "start", "money", "aloituspaikka"), N_("setup")),
    RuleTopic("afrikan_tahti.move.land", N_("Roll and move up to that many steps along land routes. You can stop early in a city, but on a route dot only with the exact count. You cannot turn back during a move."),
              ("liikkua", "kävellä", "maa", "maareitti", "askel", "piste", "land", "walk", "walking", "step", "dot", "move", "moving"), N_("moving on land")),
    RuleTopic("afrikan_tahti.move.sea", N_("From a port you can board a ship for 100 pounds. It moves the rolled number of steps toward the port you chose, and an unfinished voyage continues on later turns without a new fare."),
              ("laiva", "meri", "purjehtia", "purjehdus", "satama", "merimatka", "sea", "ship", "sail", "sailing", "port", "voyage"), N_("sailing")),
    RuleTopic("afrikan_tahti.move.sea_broke", N_("If you can't afford a ticket, you may still sail from a port for free. The ship then moves two steps per turn without a roll until it arrives."),
              ("ilmainen", "ilmaismatka", "ilmaiseksi", "free passage", "free", "broke", "köyhä", "rahaton"), N_("free passage")),
    RuleTopic("afrikan_tahti.move.land_sea", N_("During a land move you may pay the fare at a port and continue the remaining steps at sea. Likewise, a ship that reaches its port may use leftover steps on land."),
              ("maa ja meri", "land and sea", "jäljellä", "leftover", "vaihtaa"), N_("land and sea in one move")),
    RuleTopic("afrikan_tahti.move.air", N_("From an airport you can fly one air route to the next airport for 300 pounds. The flight is your whole move for the turn, with no roll."),
              ("lentää", "lento", "lentäminen", "lentokone", "lentokenttä", "fly", "flying", "flight", "plane", "airport", "air"), N_("flying")),
    RuleTopic("afrikan_tahti.dice", N_("The ordinary die is used for movement and flip attempts. The expansion's five danger dice are used in danger situations and duels."),
              ("noppa", "heittää", "heitto", "die", "dice", "roll"), N_("the die")),
    RuleTopic("afrikan_tahti.tokens.flip", N_("Flipping a token costs 100 pounds, or you may roll: 4, 5 or 6 flips it. Only one token per turn, and with the expansion the roll is allowed only when you can't pay."),
              ("kääntää", "kiekko", "merkki", "kääntö", "flip", "flipping", "token"), N_("flipping tokens")),
    RuleTopic("afrikan_tahti.tokens.values", N_("A ruby is worth 1000, an emerald 600 and a topaz 300 pounds. A robber takes all your money, and a blank does nothing."),
              ("rubiini", "smaragdi", "topaasi", "jalokivi", "rosvo", "tyhjä", "arvo", "ruby", "emerald", "topaz", "gem", "robber", "blank", "value"), N_("token values")),
    RuleTopic("afrikan_tahti.tokens.horseshoe", N_("A horseshoe is worthless while the Star is still hidden. One flipped after the Star was found wins the game just like the Star."),
              ("hevosenkenkä", "horseshoe"), N_("horseshoes")),
    RuleTopic("afrikan_tahti.place.gold_coast", N_("A gem found on the Gold Coast is worth double."),
              ("kultarannikko", "gold coast", "tupla", "double"), N_("the Gold Coast")),
    RuleTopic("afrikan_tahti.place.slave_coast", N_("If a blank turns up on the Slave Coast, you lose your next three turns. With the expansion, a robber or danger token does this instead."),
              ("orjarannikko", "slave coast", "menettää", "lose turns"), N_("the Slave Coast")),
    RuleTopic("afrikan_tahti.place.capetown", N_("The first player to reach Capetown gets 500 pounds from the bank."),
              ("kapkaupunki", "capetown", "cape town", "palkkio", "bonus"), N_("the Capetown bonus")),
    RuleTopic("afrikan_tahti.hazard", N_("The Sahara bedouins and the St. Helena pirates capture a pawn whose move ends on their dot. You go free when you roll a 1 or 2 on your turn."),
              ("beduiini", "merirosvo", "vanki", "vangita", "vapautua", "bedouins", "pirates", "captured", "capture", "hazard"), N_("bedouins and pirates")),
    RuleTopic("afrikan_tahti.win", N_("You win the moment you bring the Star of Africa, or a horseshoe found after it, to Tangier or Cairo. Either city will do."),
              ("voitto", "voittaa", "tähti", "maali", "win", "winning", "star", "goal"), N_("winning")),
)

# Why an action is refused, with the way forward (the core adds the list of what is possible now).
REASONS = {
    "game_over": N_("The game is already over. Write “new afrikan tähti” to play again."),
    "no_such_seat": N_("You are not playing in this game."),
    "unknown_action": N_("I don't know that move in Afrikan Tähti."),
    "bad_action": N_("I don't know that move in Afrikan Tähti."),
    "not_a_start": N_("You can start only in Tangier or Cairo."),
    "free_passage": N_("You are on a free passage: the ship moves two steps a turn without a roll. Choose to sail on, or stay."),
    "not_a_place": N_("You can end a move early only on a place, not on a route dot. Choose one of the destinations."),
    "land_not_allowed": N_("After this voyage you cannot go on by land in the same move."),
    "not_on_path": N_("No route there goes via that place. Choose one of the routes offered."),
    "via_not_needed": N_("Every route there goes that way anyway: just choose the destination."),
    "not_a_port": N_("There is no harbour here: ships leave only from ports."),
    "no_steps_left": N_("You have no steps left for a voyage."),
    "cannot_board_here": N_("You cannot board a ship at this point of the move."),
    "at_sea": N_("You are at sea: sail on or stay until the ship reaches a port."),
    "paid_voyage": N_("Your voyage is paid for: roll the die to sail on."),
    "not_an_airport": N_("There is no airport here. Flights leave only from airports."),
    "no_token": N_("There is no face-down token here."),
    "already_flipped": N_("You have already flipped a token this turn."),
}

# Emoji markers of the seats; the board picture uses the same colours.
SEAT_MARKERS = ("🔴", "🔵", "🟢", "🟡", "🟣", "🟠")
TOKEN_MARKERS = {"star": "⭐", "ruby": "💎", "emerald": "💎", "topaz": "💎", "robber": "🦹", "horseshoe": "🐎",
                 "blank": "▫️"}
# The Finnish display order of token kinds in the table summary: valuable first.
TOKEN_ORDER = ("star", "ruby", "emerald", "topaz", "horseshoe", "robber", "blank")

# --------------------------------------------------------------------------------------------------
# Place names as phrases: name, to, in/at, from, via, toward
# --------------------------------------------------------------------------------------------------

PLACE_TEXTS: dict[str, tuple[str, str, str, str, str, str]] = {
    "cairo": (N_("Cairo"), N_("to Cairo"), N_("in Cairo"),
             N_("from Cairo"), N_("via Cairo"), N_("toward Cairo")),
    "tangier": (N_("Tangier"), N_("to Tangier"), N_("in Tangier"),
               N_("from Tangier"), N_("via Tangier"), N_("toward Tangier")),
    "addis_abeba": (N_("Addis Abeba"), N_("to Addis Abeba"), N_("in Addis Abeba"),
                   N_("from Addis Abeba"), N_("via Addis Abeba"), N_("toward Addis Abeba")),
    "ain_galaka": (N_("Ain-Galaka"), N_("to Ain-Galaka"), N_("in Ain-Galaka"),
                  N_("from Ain-Galaka"), N_("via Ain-Galaka"), N_("toward Ain-Galaka")),
    "bahr_el_ghasal": (N_("Bahr El Ghasal"), N_("to Bahr El Ghasal"), N_("in Bahr El Ghasal"),
                      N_("from Bahr El Ghasal"), N_("via Bahr El Ghasal"), N_("toward Bahr El Ghasal")),
    "canary_islands": (N_("Canary Islands"), N_("to the Canary Islands"), N_("on the Canary Islands"),
                      N_("from the Canary Islands"), N_("via the Canary Islands"), N_("toward the Canary Islands")),
    "cape_guardafui": (N_("Cape Guardafui"), N_("to Cape Guardafui"), N_("at Cape Guardafui"),
                      N_("from Cape Guardafui"), N_("via Cape Guardafui"), N_("toward Cape Guardafui")),
    "cape_st_marie": (N_("Cape St. Marie"), N_("to Cape St. Marie"), N_("at Cape St. Marie"),
                     N_("from Cape St. Marie"), N_("via Cape St. Marie"), N_("toward Cape St. Marie")),
    "cape_verde": (N_("Cape Verde"), N_("to Cape Verde"), N_("at Cape Verde"),
                  N_("from Cape Verde"), N_("via Cape Verde"), N_("toward Cape Verde")),
    "capetown": (N_("Capetown"), N_("to Capetown"), N_("in Capetown"),
                N_("from Capetown"), N_("via Capetown"), N_("toward Capetown")),
    "congo": (N_("Congo"), N_("to Congo"), N_("in Congo"),
             N_("from Congo"), N_("via Congo"), N_("toward Congo")),
    "dar_fur": (N_("Dar-Fur"), N_("to Dar-Fur"), N_("in Dar-Fur"),
               N_("from Dar-Fur"), N_("via Dar-Fur"), N_("toward Dar-Fur")),
    "daressalam": (N_("Daressalam"), N_("to Daressalam"), N_("in Daressalam"),
                  N_("from Daressalam"), N_("via Daressalam"), N_("toward Daressalam")),
    "dragon_mountain": (N_("Dragon Mountain"), N_("to Dragon Mountain"), N_("on Dragon Mountain"),
                       N_("from Dragon Mountain"), N_("via Dragon Mountain"), N_("toward Dragon Mountain")),
    "egypt": (N_("Egypt"), N_("to Egypt"), N_("in Egypt"),
             N_("from Egypt"), N_("via Egypt"), N_("toward Egypt")),
    "gold_coast": (N_("Gold Coast"), N_("to the Gold Coast"), N_("on the Gold Coast"),
                  N_("from the Gold Coast"), N_("via the Gold Coast"), N_("toward the Gold Coast")),
    "kandjama": (N_("Kandjama"), N_("to Kandjama"), N_("in Kandjama"),
                N_("from Kandjama"), N_("via Kandjama"), N_("toward Kandjama")),
    "lake_victoria": (N_("Lake Victoria"), N_("to Lake Victoria"), N_("at Lake Victoria"),
                     N_("from Lake Victoria"), N_("via Lake Victoria"), N_("toward Lake Victoria")),
    "morocco": (N_("Morocco"), N_("to Morocco"), N_("in Morocco"),
               N_("from Morocco"), N_("via Morocco"), N_("toward Morocco")),
    "mozambique": (N_("Mozambique"), N_("to Mozambique"), N_("in Mozambique"),
                  N_("from Mozambique"), N_("via Mozambique"), N_("toward Mozambique")),
    "ocomba": (N_("Ocomba"), N_("to Ocomba"), N_("in Ocomba"),
              N_("from Ocomba"), N_("via Ocomba"), N_("toward Ocomba")),
    "sahara": (N_("Sahara"), N_("to Sahara"), N_("in Sahara"),
              N_("from Sahara"), N_("via Sahara"), N_("toward Sahara")),
    "sierra_leone": (N_("Sierra Leone"), N_("to Sierra Leone"), N_("in Sierra Leone"),
                    N_("from Sierra Leone"), N_("via Sierra Leone"), N_("toward Sierra Leone")),
    "slave_coast": (N_("Slave Coast"), N_("to the Slave Coast"), N_("on the Slave Coast"),
                   N_("from the Slave Coast"), N_("via the Slave Coast"), N_("toward the Slave Coast")),
    "st_helena": (N_("St. Helena"), N_("to St. Helena"), N_("on St. Helena"),
                 N_("from St. Helena"), N_("via St. Helena"), N_("toward St. Helena")),
    "suakin": (N_("Suakin"), N_("to Suakin"), N_("in Suakin"),
              N_("from Suakin"), N_("via Suakin"), N_("toward Suakin")),
    "tamatave": (N_("Tamatave"), N_("to Tamatave"), N_("in Tamatave"),
                N_("from Tamatave"), N_("via Tamatave"), N_("toward Tamatave")),
    "timbuktu": (N_("Timbuktu"), N_("to Timbuktu"), N_("in Timbuktu"),
                N_("from Timbuktu"), N_("via Timbuktu"), N_("toward Timbuktu")),
    "tripoli": (N_("Tripoli"), N_("to Tripoli"), N_("in Tripoli"),
               N_("from Tripoli"), N_("via Tripoli"), N_("toward Tripoli")),
    "tunis": (N_("Tunis"), N_("to Tunis"), N_("in Tunis"),
             N_("from Tunis"), N_("via Tunis"), N_("toward Tunis")),
    "victoria_falls": (N_("Victoria Falls"), N_("to Victoria Falls"), N_("at Victoria Falls"),
                      N_("from Victoria Falls"), N_("via Victoria Falls"), N_("toward Victoria Falls")),
    "whalefish_bay": (N_("Whalefish Bay"), N_("to Whalefish Bay"), N_("at Whalefish Bay"),
                     N_("from Whalefish Bay"), N_("via Whalefish Bay"), N_("toward Whalefish Bay")),
}

NAME, TO, AT, FROM, VIA, TOWARD = range(6)


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
        "star": t.pgettext("token", "Star of Africa"), "ruby": t.pgettext("token", "ruby"),
        "emerald": t.pgettext("token", "emerald"), "topaz": t.pgettext("token", "topaz"),
        "robber": t.pgettext("token", "robber"), "horseshoe": t.pgettext("token", "horseshoe"),
        "blank": t.pgettext("token", "blank"),
    }
    return names.get(kind, kind)


def token_name(kind: str, t: Translator) -> str:
    """The name with its marker, for event lines: "💎 ruby"."""
    return f"{TOKEN_MARKERS.get(kind, '🪙')} {token_word(kind, t)}"


def kind_of(content_id: str) -> str:
    """"tok:t5:ruby" -> "ruby"."""
    return content_id.rsplit(":", 1)[-1]


def captive_text(hazard: str, t: Translator) -> str:
    if hazard == "pirates":
        return t.gettext("held by the pirates")
    return t.gettext("held by the bedouins")


def dot_text(node: str, t: Translator) -> str:
    """Where a pawn on a land dot stands: "on the route Sahara–Dar-Fur", "at the bedouins' dot"."""
    if node in HAZARDS:
        return t.gettext("at the pirates' dot") if HAZARDS[node] == "pirates" else t.gettext("at the bedouins' dot")
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


def where(pawn: Any, t: Translator) -> str:
    """A pawn's situation in a few words, for the table."""
    node = getattr(pawn, "node", None)
    voyage = getattr(pawn, "voyage", None)
    if node is None:
        return t.gettext("choosing a start")
    if getattr(pawn, "captured", False) and node in HAZARDS:
        return captive_text(HAZARDS[node], t)
    if voyage is not None:
        leg = LEGS.get((voyage.origin, voyage.dest))
        left = leg.steps - voyage.at if leg else 0
        text = t.ngettext("at sea, {n} step {to}", "at sea, {n} steps {to}", left).format(
            n=left, to=place(voyage.dest, t, TO))
        return text + ("" if voyage.paid else " " + t.gettext("(free passage)"))
    return node_text(node, t)


def turn_line(view: Any, ctx: RenderContext) -> str | None:
    """What the active seat is doing now, by phase; a phase this module does not know gets the
    plain "Turn: name"."""
    t = ctx.t
    seat = getattr(view, "turn", None)
    phase = getattr(view, "phase", None)
    if phase == "over" or seat is None:
        return None
    name = ctx.name(seat)
    me = view.pawns[seat]
    move = getattr(view, "move", None)
    match phase:
        case "setup":
            return t.gettext("▶ {name}, choose your start: {a} or {b}.").format(
                name=name, a=place("tangier", t), b=place("cairo", t))
        case "declare" if getattr(me, "voyage", None) is not None:
            return t.gettext("▶ Turn: {name} – sail on or stay.").format(name=name)
        case "declare":
            return t.gettext("▶ Turn: {name} – roll the die or choose another move.").format(name=name)
        case "release":
            faces = t.format_list([str(f) for f in view.options.hazard_release_faces], style="or")
            return t.gettext("▶ Turn: {name} – captured; a roll of {faces} sets you free.").format(
                name=name, faces=faces)
        case "move" if move is not None:
            return t.ngettext("▶ Turn: {name} rolled {roll} – choose where to go ({n} step left).",
                              "▶ Turn: {name} rolled {roll} – choose where to go ({n} steps left).",
                              move.steps).format(name=name, roll=move.roll, n=move.steps)
        case "after_move":
            return t.gettext("▶ Turn: {name} – flip the token {here} for {price}, or end the turn.").format(
                name=name, here=place(me.node, t, AT), price=money(FLIP_PRICE, t))
    return t.gettext("▶ Turn: {name}").format(name=name)


class AfrikanTahtiUI(GameUI):
    game_id = "afrikan_tahti"
    domain = "afrikan_tahti"
    aliases = ("afrikan tähti", "afrikantahti", "afrikan tahti", "afrikan_tahti", "tähti", "africa star",
               "star of africa")

    def title(self, t: Translator) -> str:
        return "⭐ " + t.gettext("Afrikan Tähti")

    def rule_topics(self) -> Sequence[RuleTopic]:
        return TOPICS

    def option_words(self) -> dict[str, str]:
        return {"laajennus": "expansion", "retkikunnat": "expansion", "smaragdi": "emerald_value",
                "lähtöpaikka": "start_place", "lähtö": "start_place", "kierrosraja": "max_rounds",
                "kapkaupunki": "capetown_bonus", "ilmaisaskeleet": "broke_sea_steps"}

    # --- the table ---------------------------------------------------------------------------
    def render_table(self, view: Any, ctx: RenderContext) -> str:
        t = ctx.t
        if view.phase == "setup":
            lines = [t.gettext("{game} – getting ready").format(game=self.title(t))]
        else:
            lines = [t.gettext("{game} – round {round}").format(game=self.title(t), round=view.round)]
        line = turn_line(view, ctx)
        if line:
            lines.append(line)
        for seat, pawn in enumerate(view.pawns):
            lines.append(self._pawn_line(seat, pawn, ctx))
        lines.append(self._tokens_line(view, t))
        if view.phase == "over":
            return "\n".join(lines)  # the events and the final standings tell the rest
        holder = getattr(view, "star_holder", None)
        if holder is not None:
            lines.append(t.gettext("⭐ The Star is with {name}: next stop Tangier or Cairo!").format(
                name=ctx.name(holder)))
        elif not getattr(view, "star_found", False):
            lines.append(t.gettext("⭐ The Star of Africa is still hidden."))
        bonus = view.options.capetown_bonus
        if getattr(view, "capetown_claimed", None) is None and bonus:
            lines.append(t.gettext("💰 The first to reach Capetown gets {amount}.").format(amount=money(bonus, t)))
        if getattr(view, "last_roll", None) is not None and view.last_roller is not None:
            lines.append(t.gettext("🎲 Last roll: {name} {die}").format(name=ctx.name(view.last_roller),
                                                                       die=view.last_roll))
        return "\n".join(lines)

    def _pawn_line(self, seat: int, pawn: Any, ctx: RenderContext) -> str:
        t = ctx.t
        marks = "".join(TOKEN_MARKERS.get(kind_of(item), "") for item in getattr(pawn, "items", ()))
        text = t.gettext("{marker} {name}: {where} · {cash}").format(
            marker=SEAT_MARKERS[seat % len(SEAT_MARKERS)], name=ctx.name(seat), where=where(pawn, t),
            cash=money(pawn.cash, t))
        lost = getattr(pawn, "lost_turns", 0)
        if lost:
            text += " · " + t.ngettext("skips {n} turn", "skips {n} turns", lost).format(n=lost)
        return f"{text} {marks}".rstrip()

    def _tokens_line(self, view: Any, t: Translator) -> str:
        down = len(view.face_down)
        flipped: dict[str, int] = {}
        for _place, cid in view.revealed:
            flipped[kind_of(cid)] = flipped.get(kind_of(cid), 0) + 1
        order = [k for k in TOKEN_ORDER if k in flipped] + sorted(k for k in flipped if k not in TOKEN_ORDER)
        text = t.gettext("🪙 Tokens face down: {down}/{total}").format(down=down, total=down + len(view.revealed))
        if order:
            counts = ", ".join(f"{token_word(k, t)} {flipped[k]}" for k in order)
            text += " · " + t.gettext("flipped: {counts}").format(counts=counts)
        return text

    def render_private(self, view: Any, ctx: RenderContext) -> str | None:
        # Nothing is private in the base game; the prompt repeats the seat's own situation so the
        # private chat makes sense without the group's table.
        seat = view.seat
        if seat is None or not 0 <= seat < len(view.pawns):
            return None
        lines = [self._pawn_line(seat, view.pawns[seat], ctx)]
        if getattr(view, "turn", None) == seat:
            line = turn_line(view, ctx)
            if line:
                lines.append(line)
        return "\n".join(lines)

    # --- events ------------------------------------------------------------------------------
    def render_events(self, events: Sequence[Event], ctx: RenderContext) -> list[str]:
        out: list[str] = []
        for e in events:
            try:
                line = self._event(e, ctx)
            except (KeyError, TypeError, ValueError):
                # an event whose parameters changed shape (the expansion reuses codes): a plain
                # line keeps the table readable where a crash would lose the whole message
                line = self._generic(e, ctx)
            if line:
                out.append(line)
        return out

    @staticmethod
    def _generic(e: Event, ctx: RenderContext) -> str:
        seat = e.get("seat")
        label = e.code.replace("_", " ")
        return f"{ctx.name(seat)}: {label}" if isinstance(seat, int) else f"({label})"

    def _event(self, e: Event, ctx: RenderContext) -> str | None:
        t = ctx.t
        p = e.p
        name = ctx.name(p["seat"]) if isinstance(p.get("seat"), int) else ""
        match e.code:
            case "tokens_placed":
                n = len(p.get("tokens", ()))
                return t.ngettext("{n} treasure token was placed face down.",
                                  "{n} treasure tokens were placed face down.", n).format(n=n)
            case "start_assigned" | "start_chosen":
                return t.gettext("{name} starts {place}.").format(name=name, place=place(p["place"], t, FROM))
            case "rolloff":
                rolls = ", ".join(f"{ctx.name(s)} {r}" for s, r in zip(p["seats"], p["rolls"]))
                return t.gettext("🎲 Roll for the first turn: {rolls}.").format(rolls=rolls)
            case "first_player":
                return t.gettext("{name} gets the first turn.").format(name=name)
            case "turn":
                return None  # the table's turn line says it
            case "turn_lost":
                pending = int(p.get("pending", 0))
                if pending:
                    return t.ngettext("{name} misses this turn; {n} more turn to miss.",
                                      "{name} misses this turn; {n} more turns to miss.", pending).format(
                        name=name, n=pending)
                return t.gettext("{name} misses this turn.").format(name=name)
            case "rolled":
                if p.get("purpose") == "release":
                    return t.gettext("🎲 {name} rolled {die} to get free.").format(name=name, die=p["die"])
                if p.get("purpose") == "flip":
                    return t.gettext("🎲 {name} rolled {die} for the token.").format(name=name, die=p["die"])
                return t.gettext("🎲 {name} rolled {die}.").format(name=name, die=p["die"])
            case "moved":
                return self._moved(name, p, t)
            case "boarded":
                if p.get("free"):
                    return t.gettext("⛵ {name} sails for free {to}.").format(name=name, to=place(p["dest"], t, TO))
                return t.gettext("⛵ {name} bought a ticket {to} ({fare}).").format(
                    name=name, to=place(p["dest"], t, TO), fare=money(p["fare"], t))
            case "sailed":
                steps = int(p.get("steps", 0))
                if p.get("arrived"):
                    return t.ngettext("⛵ {name} sailed {n} step and arrived {to}.",
                                      "⛵ {name} sailed {n} steps and arrived {to}.", steps).format(
                        name=name, n=steps, to=place(p["dest"], t, TO))
                leg = next((leg for leg in LEGS.values() if leg.id == p.get("leg") and leg.dest == p.get("dest")), None)
                left = leg.steps - int(p.get("at", 0)) if leg else 0
                return t.ngettext("⛵ {name} is sailing {to}: {left} step to go.",
                                  "⛵ {name} is sailing {to}: {left} steps to go.", left).format(
                    name=name, left=left, to=place(p["dest"], t, TO))
            case "flew":
                return t.gettext("✈️ {name} flew {start} {to} ({fare}).").format(
                    name=name, start=place(p["start"], t, FROM), to=place(p["dest"], t, TO), fare=money(p["fare"], t))
            case "stayed":
                return t.gettext("{name} stays put.").format(name=name)
            case "capetown_bonus":
                return t.gettext("💰 {name} reached Capetown first and gets {amount}!").format(
                    name=name, amount=money(p["amount"], t))
            case "captured":
                if p.get("hazard") == "pirates":
                    return t.gettext("⛓ {name} was captured by the pirates!").format(name=name)
                return t.gettext("⛓ {name} was captured by the bedouins!").format(name=name)
            case "released":
                return t.gettext("🔓 {name} is free again!").format(name=name)
            case "still_captured":
                return t.gettext("{name} is still held captive.").format(name=name)
            case "flipped":
                return t.gettext("🪙 {name} flipped the token {here}: {token}.").format(
                    name=name, here=place(p["place"], t, AT), token=token_name(p["kind"], t))
            case "flip_failed":
                return t.gettext("{name} did not get the token flipped.").format(name=name)
            case "star_found":
                return t.gettext("⭐ {name} found the Star of Africa! Next stop Tangier or Cairo.").format(name=name)
            case "gem":
                # the "flipped" line just named the gem; this one says what it pays
                if p.get("doubled"):
                    return t.gettext("💰 {name} gets {amount}, double on the Gold Coast!").format(
                        name=name, amount=money(p["amount"], t))
                return t.gettext("💰 {name} gets {amount}.").format(name=name, amount=money(p["amount"], t))
            case "robbed":
                if not p.get("lost"):
                    return t.gettext("{name} had no money for the robber to take.").format(name=name)
                return t.gettext("{name} loses all their money ({amount}).").format(
                    name=name, amount=money(p["lost"], t))
            case "horseshoe_kept":
                return t.gettext("🐎 A horseshoe after the Star: {name} can win with it too!").format(name=name)
            case "horseshoe_worthless":
                return t.gettext("🐎 A horseshoe, but worthless while the Star is still hidden.")
            case "blank":
                return None  # the "flipped" line said it; at the Slave Coast "turns_lost" follows
            case "turns_lost":
                turns = int(p.get("turns", 0))
                if p.get("reason") == "slave_coast":
                    return t.ngettext("⛓ The slave traders caught {name}: {n} turn lost.",
                                      "⛓ The slave traders caught {name}: {n} turns lost.", turns).format(
                        name=name, n=turns)
                return t.ngettext("{name} loses {n} turn.", "{name} loses {n} turns.", turns).format(name=name, n=turns)
            case "won":
                goal = place(p["goal"], t, TO)
                if p.get("item") == "horseshoe":
                    return t.gettext("🏆 {name} brought a horseshoe {goal} and wins!").format(name=name, goal=goal)
                return t.gettext("🏆 {name} brought the Star of Africa {goal} and wins!").format(name=name, goal=goal)
            case "game_over":
                if p.get("reason") == "round_limit":
                    return t.gettext("The round limit was reached and the game ends.")
                return None  # "won" said it
        # An event this module does not know (the expansion adds some): a plain line, not silence.
        return self._generic(e, ctx)

    def _moved(self, name: str, p: dict[str, Any], t: Translator) -> str:
        steps = int(p.get("steps", 0))
        dest = p["dest"]
        if dest in PLACE_SET:
            return t.ngettext("{name} walked {n} step {to}.", "{name} walked {n} steps {to}.", steps).format(
                name=name, n=steps, to=place(dest, t, TO))
        return t.ngettext("{name} walked {n} step and is now {where}.",
                          "{name} walked {n} steps and is now {where}.", steps).format(
            name=name, n=steps, where=dot_text(dest, t))

    # --- actions -------------------------------------------------------------------------------
    def action_label(self, notation: str, view: Any, ctx: RenderContext) -> str:
        t = ctx.t
        phase = getattr(view, "phase", None)
        mover = getattr(view, "turn", None)
        me = view.pawns[mover] if isinstance(mover, int) and 0 <= mover < len(view.pawns) else None
        match notation.split():
            case ["start", pid]:
                return t.gettext("Start {place}").format(place=place(pid, t, FROM))
            case ["roll"]:
                if phase == "release":
                    return t.gettext("🎲 Roll to get free")
                if me is not None and getattr(me, "voyage", None) is not None:
                    return t.gettext("🎲 Roll and sail on")
                return t.gettext("🎲 Roll the die")
            case ["board", pid]:
                return t.gettext("⛵ Sail {to} ({fare})").format(to=place(pid, t, TO), fare=money(SEA_FARE, t))
            case ["free_sail", pid]:
                if me is not None and getattr(me, "voyage", None) is not None:
                    return t.gettext("⛵ Sail on {to}").format(to=place(pid, t, TO))
                return t.gettext("⛵ Free passage {to}").format(to=place(pid, t, TO))
            case ["fly", pid]:
                return t.gettext("✈️ Fly {to} ({fare})").format(to=place(pid, t, TO), fare=money(AIR_FARE, t))
            case ["flip"]:
                return t.gettext("🪙 Flip the token ({price})").format(price=money(FLIP_PRICE, t))
            case ["flip_roll"]:
                return t.gettext("🎲 Roll for the token (4–6)")
            case ["stay"]:
                return t.gettext("⏸ Stay")
            case ["end_phase"]:
                return t.gettext("✋ Don't flip") if phase == "after_move" else t.gettext("End the phase")
            case ["move", code, *rest]:
                return self._move_label(code, rest, view, me, ctx)
        return notation

    def _move_label(self, code: str, rest: list[str], view: Any, me: Any, ctx: RenderContext) -> str:
        t = ctx.t
        to = node_of(code) or code
        via = node_of(rest[1]) if len(rest) == 2 else None
        if me is not None and to == me.node and via is None:
            return t.gettext("⏹ Stop here ({place})").format(place=place(to, t)) if to in PLACE_SET \
                else t.gettext("⏹ Stop here")
        paths = move_paths(view, view.turn) if me is not None else {}
        path = chosen_path(paths, to, via)
        steps = len(path)
        if to not in PLACE_SET:
            prev = path[-2] if len(path) > 1 else (me.node if me is not None else to)
            toward = ahead(prev, to)
            # the nearest place ahead and how far it still is: two dots toward the same place differ
            text = (t.ngettext("{n} step {toward} ({k} to go)", "{n} steps {toward} ({k} to go)", steps).format(
                n=steps, toward=place(toward[0][0], t, TOWARD), k=toward[0][1]) if toward else
                t.ngettext("{n} step", "{n} steps", steps).format(n=steps))
            return ("⚠️ " + text) if to in HAZARDS else text
        options = paths.get(to, ())
        if via is None and len(options) > 1:
            # name the canonical path's distinguishing place, so both buttons read differently
            others = {p for path_ in options[1:] for p in path_[:-1] if p in PLACE_SET}
            mine = [p for p in path[:-1] if p in PLACE_SET and p not in others]
            via = mine[0] if mine else None
        if via is not None:
            return t.gettext("→ {place} {via} ({n})").format(place=place(to, t), via=place(via, t, VIA), n=steps)
        return t.gettext("→ {place} ({n})").format(place=place(to, t), n=steps)

    def button_rows(self, legal: Sequence[str], view: Any, ctx: RenderContext) -> list[list[tuple[str, str]]]:
        groups: dict[str, list[tuple[str, str]]] = {}
        seen: dict[str, int] = {}
        for notation in legal:
            label = self.action_label(notation, view, ctx)
            seen[label] = seen.get(label, 0) + 1
            if seen[label] > 1:  # two dots can read alike; keep every button distinct
                label = f"{label} #{seen[label]}"
            groups.setdefault(self._group(notation, view), []).append((label, notation))
        rows: list[list[tuple[str, str]]] = []
        for key in ("stop", "roll", "place", "dot", "board", "free_sail", "fly", "flip", "start", "other"):
            items = groups.get(key, [])
            width = 3 if key in ("place", "start") else 2
            rows.extend(items[i:i + width] for i in range(0, len(items), width))
        return rows

    @staticmethod
    def _group(notation: str, view: Any) -> str:
        words = notation.split()
        verb = words[0]
        if verb == "move":
            to = node_of(words[1]) or words[1]
            mover = getattr(view, "turn", None)
            if isinstance(mover, int) and to == view.pawns[mover].node and len(words) == 2:
                return "stop"
            return "place" if to in PLACE_SET else "dot"
        if verb in ("roll", "stay"):
            return "roll"
        if verb in ("flip", "flip_roll", "end_phase"):
            return "flip"
        return verb if verb in ("board", "free_sail", "fly", "start") else "other"

    def group_actions(self, legal: Sequence[str], public_view: Any) -> tuple[str, ...]:
        # The base game hides nothing a button could reveal, so the group gets every button. Other
        # modes may have hand cards; there only the base verbs are shown until their UI says more.
        if is_base(public_view.options):
            return tuple(legal)
        return tuple(n for n in legal if n.split()[0] in BASE_VERBS)

    def idle_action(self, legal: Sequence[str], view: Any) -> str | None:
        # spec §7 defaults (stay, the nearest stop, no flip), not the smart AI's choice
        try:
            actions = tuple(ENGINE.parse_notation(n) for n in legal)
        except BadNotation:
            return None
        chosen = idle_action(view, actions)
        return ENGINE.notation(chosen) if chosen is not None else None

    def parse(self, text: str, ctx: ParseContext) -> ParseResult:
        return parser.parse(text, ctx)

    def reason_text(self, code: str, params: dict[str, Any], ctx: RenderContext) -> str:
        t = ctx.t
        match code:
            case "not_your_turn" if isinstance(params.get("turn"), int):
                return t.gettext("It is not your turn: now it is {name}'s turn.").format(name=ctx.name(params["turn"]))
            case "wrong_phase":
                return self._wrong_phase(str(params.get("phase", "")), t)
            case "not_reachable" if params.get("to"):
                return t.gettext("{place} is out of reach now. Choose one of the places offered.").format(
                    place=place(params["to"], t) if params["to"] in PLACE_SET else node_text(params["to"], t))
            case "not_reachable" if params.get("steps"):
                n = int(params["steps"])
                return t.ngettext("No move of exactly {n} step fits. Choose one of the places offered.",
                                  "No move of exactly {n} steps fits. Choose one of the places offered.", n).format(n=n)
            case "not_reachable":
                return t.gettext("You cannot get there with this roll. Choose one of the places offered.")
            case "not_on_path" if params.get("via") in PLACE_SET:
                return t.gettext("This move cannot go {via}. Choose one of the routes offered.").format(
                    via=place(params["via"], t, VIA))
            case "no_such_leg" if params.get("port") in PLACE_SET and params.get("dest") in PLACE_SET:
                return t.gettext("No ship sails {start} {to}.").format(
                    start=place(params["port"], t, FROM), to=place(params["dest"], t, TO))
            case "no_such_route" if params.get("start") in PLACE_SET and params.get("to") in PLACE_SET:
                return t.gettext("There is no flight {start} {to}.").format(
                    start=place(params["start"], t, FROM), to=place(params["to"], t, TO))
            case "cannot_afford" if "price" in params and "cash" in params:
                return t.gettext("That costs {price} and you have {cash}.").format(
                    price=money(int(params["price"]), t), cash=money(int(params["cash"]), t))
            case "leg_blocked":
                return t.gettext("That ship would take you back the way you came. Choose another route.")
            case "wrong_destination" if params.get("dest") in PLACE_SET:
                return t.gettext("Your ship is bound {to}: sail on or stay.").format(to=place(params["dest"], t, TO))
            case "can_afford_fare":
                return t.gettext("You can pay the fare ({fare}), so the passage is not free: buy a ticket.").format(
                    fare=money(int(params.get("fare", SEA_FARE)), t))
            case "can_afford_flip":
                return t.gettext("You can pay for the flip ({price}), so rolling for it is not allowed.").format(
                    price=money(int(params.get("price", FLIP_PRICE)), t))
        if code in REASONS:
            return t.gettext(REASONS[code])
        return t.gettext("That move is not possible now.")

    @staticmethod
    def _wrong_phase(phase: str, t: Translator) -> str:
        match phase:
            case "setup":
                return t.gettext("First choose where you start: Tangier or Cairo.")
            case "declare":
                return t.gettext("First declare your move: roll the die, sail, fly, flip a token or stay.")
            case "release":
                return t.gettext("You are held captive: roll the die to try to get free.")
            case "move":
                return t.gettext("You have already rolled: now choose where your pawn goes.")
            case "after_move":
                return t.gettext("Your move is done: flip the token here or end your turn.")
        return t.gettext("That is not possible at this point of the turn.")

    def render_image(self, view: Any, ctx: RenderContext) -> bytes | None:
        # The board picture depends only on positions, tokens and names, so transports that skip an
        # unchanged picture (Telegram edits only the caption, Matrix compares hashes) upload a new
        # one only when something moved; renders of the same position come from a cache.
        from chatbot.games.afrikan_tahti_render import board_png

        return board_png(view, ctx)


BASE_VERBS = frozenset({"start", "roll", "move", "board", "free_sail", "fly", "flip", "flip_roll", "stay",
                        "end_phase"})

UI = AfrikanTahtiUI()
