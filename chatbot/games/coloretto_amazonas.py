"""Coloretto Amazonas in chat: names, rule texts, renderers, buttons and the parser entry point.

Renderers take views only. The group sees the public table (every seat's rows, stack colours,
bonus cards, the protection card, pile sizes, hand sizes, scores) and public events; a seat's hand
and the card it drew reach only that seat's private chat (spec §7.4). Public events carry card
instance ids, but texts name only kinds, so a group transcript does not depend on the shuffle
(spec §7.5 invariant 2).

Cards are written "[🟦 piraija]" in events and "[piraija]" in rows: the brackets make every animal
in a text easy to spot for players and exact to find for the no-leak checks (:func:`cards_in`).
Finnish templates keep player names and animal names in the nominative ("antoi kortin [🟦 piraija]
pelaajalle Liisa"), since endings cannot be glued to arbitrary names (DESIGN.md §10).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from chatbot.core.i18n import N_, Translator
from chatbot.core.parsing import ParseContext, ParseResult
from chatbot.core.ports import GameUI, RenderContext, RuleTopic
from chatbot.games import coloretto_amazonas_parser
from engines.contract import Event

COLOURS = ("B", "P", "R", "G")
CAPACITY = {"B": 5, "P": 4, "R": 3, "G": 6}
NEIGHBOURS = coloretto_amazonas_parser.NEIGHBOURS
MARKER = {"B": "🟦", "P": "🟪", "R": "🟫", "G": "🟩"}
LOW_DECK = 5  # from this many cards left, every draw is announced: the end is near

# Display names of the animals (spec §2.2); the Finnish catalog gives the Finnish names.
ANIMALS = {
    "B1": N_("Amazon river dolphin"), "B2": N_("piranha"), "B3": N_("electric eel"), "B4": N_("arapaima"),
    "B5": N_("Amazonian manatee"), "P1": N_("scarlet macaw"), "P2": N_("toucan"), "P3": N_("harpy eagle"),
    "P4": N_("hummingbird"), "R1": N_("anaconda"), "R2": N_("caiman"), "R3": N_("iguana"), "G1": N_("jaguar"),
    "G2": N_("sloth"), "G3": N_("tapir"), "G4": N_("capybara"), "G5": N_("poison dart frog"),
    "G6": N_("spider monkey"),
}

TOPICS = (
    RuleTopic("coloretto_amazonas.goal", N_("You are explorers in the Amazon jungle. Collect animals in your four coloured rows, one of each kind per row: the longer a row, the more it scores. The most points wins."),
              ("tavoite", "voittaa", "voittaja", "goal", "win", "aim"), N_("goal")),
    RuleTopic("coloretto_amazonas.setup", N_("Everyone has four row cards in the order blue, purple, brown, green. Each player draws three animal cards, and the start player is chosen at random. With two players the protection card is not used."),
              ("alku", "aloitus", "rivikortti", "setup", "start"), N_("setup")),
    RuleTopic("coloretto_amazonas.turn", N_("On your turn, either play a card into your own row or give a card to another player. Then you draw a new card and play passes clockwise."),
              ("vuoro", "nostaa", "turn", "draw"), N_("turn")),
    RuleTopic("coloretto_amazonas.action.play", N_("Play an animal card from your hand into your row of the same colour. Rows are open for everyone to see."),
              ("pelata", "pelaaminen", "pelaa", "play", "playing"), N_("playing a card")),
    RuleTopic("coloretto_amazonas.row_capacity", N_("A row is full when it holds one of each animal of its colour: 5 cards in blue, 4 in purple, 3 in brown and 6 in green."),
              ("rivin koko", "täysi rivi", "koko", "mahtuu", "row size", "how many cards"), N_("row size")),
    RuleTopic("coloretto_amazonas.duplicate", N_("If an animal arrives in a row that already has one of the same kind, both cards go to the discard pile. A duplicate therefore never completes a row."),
              ("sama eläin", "kaksoiskappale", "tupla", "duplicate", "same animal", "twice"), N_("duplicates")),
    RuleTopic("coloretto_amazonas.full_row", N_("When a row is full, its cards are at once turned face down into a finished stack in front of you, and the row starts again empty. You may collect several stacks of the same colour."),
              ("pino", "valmis pakka", "täyttyä", "rivi täyttyy", "full row", "full", "filled", "stack", "stacks", "fills"),
              N_("full row")),
    RuleTopic("coloretto_amazonas.bonus", N_("The first player to fill a row of a colour takes that colour's bonus card. There is only one bonus per colour."),
              ("bonus", "bonuskortti", "bonukset", "bonus card"), N_("bonus")),
    RuleTopic("coloretto_amazonas.action.give", N_("You may instead give a card from your hand to another player. They must take it unless the same animal is already in their row of that colour."),
              ("antaa", "antaminen", "anto", "lahja", "give", "giving", "gift"), N_("giving a card")),
    RuleTopic("coloretto_amazonas.gift.accept", N_("An accepted card goes into the row of its colour exactly as if the player had played it: it can fill the row, win a bonus, or, as a duplicate, remove both copies."),
              ("hyväksyä", "ottaa vastaan", "vastaanottaa", "vastaanottaminen", "accept", "accepting"), N_("accepting a gift")),
    RuleTopic("coloretto_amazonas.gift.refuse", N_("If you refuse, the card is discarded and you must also discard one animal from a neighbouring row: blue's neighbour is purple, purple's are blue and brown, brown's are purple and green, and green's is brown. If the neighbouring rows are empty, you must accept."),
              ("hylätä", "kieltäytyä", "kieltäytyminen", "viereinen rivi", "naapuririvi", "refuse", "decline",
               "refusing", "neighbour"),
              N_("refusing a gift")),
    RuleTopic("coloretto_amazonas.protection", N_("With three or four players, whoever receives a card takes the protection card, and nobody may give them a card while they hold it. It moves on to the next player who is given a card."),
              ("suojakortti", "suoja", "protection", "protection card", "protected"), N_("protection card")),
    RuleTopic("coloretto_amazonas.protection.refuser", N_("In this game the protection card goes to the player who last refused a card. Nobody may give them an animal that is already in their row."),
              ("kieltäytyjän suoja", "kieltäytyjä", "muunnelma", "refuser protection", "refuser", "variant"),
              N_("protection (refuser variant)")),
    RuleTopic("coloretto_amazonas.stacks_hidden", N_("Finished stacks stay face down until scoring. Everyone can still see how many stacks each player has and their colours."),
              ("pinojen katsominen", "katsoa pinoja", "piilossa", "katsoa", "kurkistaa", "pino", "hidden stacks", "look", "peek", "hidden",
               "stacks", "face down"),
              N_("hidden stacks")),
    RuleTopic("coloretto_amazonas.game_end", N_("The game ends at once when someone completes their third stack (second with four players) or when the last card of the draw pile has been drawn. Cards left in hand score nothing."),
              ("pelin loppu", "loppu", "päättyy", "game end", "end", "ends"), N_("game end")),
    RuleTopic("coloretto_amazonas.scoring", N_("Every row and every finished stack scores by its number of cards: 1 card 1 point, 2 cards 3, 3 cards 6, 4 cards 10, 5 cards 15, 6 cards 21. Bonus cards add blue 5, purple 4, brown 3 and green 6. The most points wins; tied players share the place."),
              ("pisteet", "pistetaulukko", "pisteytys", "tasapeli", "score", "scoring", "points", "tie"), N_("scoring")),
)

# Every reason code of the engine and of the parser, each naming the way forward (spec §9).
REASONS = {
    "protected": N_("{name} holds the protection card, so nobody can give them a card now. Give it to another player or play it yourself."),
    "give_self": N_("You cannot give a card to yourself. Play it into your own row instead."),
    "refuse_no_duplicate": N_("You may refuse only if the same animal is already in your row, so this card must be accepted."),
    "refuse_no_neighbour": N_("You cannot refuse, because your neighbouring rows are empty. Accept the card."),
    "not_in_row": N_("That animal is not in your rows. Choose an animal from the row next to the gift's colour."),
    "not_your_turn": N_("It is another player's turn. Wait for your turn."),
    "gift_pending": N_("A gift is waiting for an answer first: accept it or refuse it."),
    "no_gift": N_("Nobody has given you a card, so there is nothing to accept or refuse. On your turn, play a card or give one."),
    "no_such_seat": N_("There is no such player. Give the card to someone at the table."),
    "game_over": N_("The game is already over. Start a new one with “new”."),
    "unknown_action": N_("That is not a move in this game. Play a card or give one; when you are given a card, accept or refuse it."),
    "unknown_animal": N_("There is no such animal in this game. Name a card by its animal, its colour or its number in your hand."),
}


def animal(kind: str, t: Translator) -> str:
    return t.gettext(ANIMALS[kind])


def card_name(kind: str, t: Translator) -> str:
    """An animal card for people: "[🟦 piraija]"."""
    return f"[{MARKER[kind[0]]} {animal(kind, t)}]"


def colour_name(colour: str, t: Translator) -> str:
    match colour:
        case "B":
            return t.pgettext("colour", "blue")
        case "P":
            return t.pgettext("colour", "purple")
        case "R":
            return t.pgettext("colour", "brown")
    return t.pgettext("colour", "green")


def into_row(colour: str, t: Translator) -> str:
    """ "into the blue row": Finnish needs the colour in the illative ("siniseen riviin")."""
    match colour:
        case "B":
            return t.pgettext("row", "into the blue row")
        case "P":
            return t.pgettext("row", "into the purple row")
        case "R":
            return t.pgettext("row", "into the brown row")
    return t.pgettext("row", "into the green row")


def cards_in(text: str) -> list[str]:
    """Every animal named in a rendered text (the bracketed names, without colour markers)."""
    return [re.sub(r"^[🟦🟪🟫🟩] ", "", m) for m in re.findall(r"\[([^\]]+)\]", text)]


def _row_text(row: Any, t: Translator) -> str:
    cards = " ".join(f"[{animal(k, t)}]" for k in row.kinds) or "–"
    return f"{MARKER[row.colour]} {len(row.kinds)}/{row.capacity} {cards}"


def _seat_no(notation_part: str) -> int:
    return int(notation_part.removeprefix("seat"))


class ColorettoAmazonasUI(GameUI):
    game_id = "coloretto_amazonas"
    domain = "coloretto_amazonas"
    aliases = ("coloretto", "coloretto amazonas", "amazonas", "coloretto-amazonas", "amazon")

    def title(self, t: Translator) -> str:
        return "🦜 " + t.gettext("Coloretto Amazonas")

    def rule_topics(self) -> Sequence[RuleTopic]:
        return TOPICS

    def option_words(self) -> dict[str, str]:
        return {"suojakortti": "protection_mode", "suoja": "protection_mode", "pakan_loppu": "deck_end",
                "pinot": "stacks_to_end", "pinoja": "stacks_to_end", "tasapeli": "tiebreak",
                "aloittaja": "start_player", "protection": "protection_mode", "stacks": "stacks_to_end"}

    # --- the table ---------------------------------------------------------------------------
    def render_table(self, view: Any, ctx: RenderContext) -> str:
        t = ctx.t
        lines = [self.title(t), self._status_line(view, ctx)]
        lines.append(t.gettext("Draw pile: {deck} · discard pile: {discard}").format(
            deck=t.format_number(view.deck_count), discard=t.format_number(view.discard_count))
            + " · " + t.ngettext("{n} stack ends the game", "{n} stacks end the game", view.stacks_to_end).format(
            n=view.stacks_to_end))
        if view.bonuses_free:
            values = view.options.bonus_values
            free = " · ".join(f"{MARKER[c]} +{values[COLOURS.index(c)]}" for c in view.bonuses_free)
            lines.append(t.gettext("Bonus cards left: {bonuses}").format(bonuses=free))
        else:
            lines.append(t.gettext("All bonus cards are taken."))
        if view.protection_mode != "off":
            if view.protection_holder is None:
                lines.append(t.gettext("🛡️ Protection card: nobody yet"))
            else:
                lines.append(t.gettext("🛡️ Protection card: {name}").format(name=ctx.name(view.protection_holder)))
        over = view.phase == "OVER"
        for seat in view.seats:
            lines.append("")
            lines.extend(self._seat_lines(seat, view, ctx, over))
        if over:
            lines.append("")
            lines.append(t.gettext("Cards left in hand score nothing."))
        return "\n".join(lines)

    def _status_line(self, view: Any, ctx: RenderContext) -> str:
        t = ctx.t
        if view.phase == "OVER":
            return t.gettext("🏁 The game is over.")
        if view.phase == "GIFT" and view.gift is not None:
            g = view.gift
            return t.gettext("▶ {receiver} decides: accept {card} from {giver}, or refuse it.").format(
                receiver=ctx.name(g.receiver), card=card_name(g.kind, t), giver=ctx.name(g.giver))
        return t.gettext("▶ Turn: {name} – play a card or give one.").format(name=ctx.name(view.active))

    def _seat_lines(self, seat: Any, view: Any, ctx: RenderContext, over: bool) -> list[str]:
        t = ctx.t
        marks = ""
        if seat.seat in view.to_act:
            marks += " ◀"
        if seat.protected:
            marks += " 🛡️"
        hand = t.ngettext("{n} card in hand", "{n} cards in hand", seat.hand_size).format(n=seat.hand_size)
        points = t.ngettext("{n} point", "{n} points", seat.score).format(n=t.format_number(seat.score))
        lines = [f"{ctx.name(seat.seat)}{marks} – {hand} · {points}"]
        lines.extend("  " + _row_text(row, t) for row in seat.rows)
        if seat.stacks or seat.bonuses:
            stacks = "".join(MARKER[c] for c in seat.stacks) or "–"
            bonuses = "".join(MARKER[c] for c in seat.bonuses) or "–"
            lines.append("  " + t.gettext("Stacks: {stacks} · bonus cards: {bonuses}").format(
                stacks=stacks, bonuses=bonuses))
        if over:
            table = view.options.score_table
            rows = sum(table[len(r.kinds)] for r in seat.rows)
            stacks_points = sum(table[CAPACITY[c]] for c in seat.stacks)
            bonus = sum(view.options.bonus_values[COLOURS.index(c)] for c in seat.bonuses)
            lines.append("  " + t.gettext("Rows {rows} + stacks {stacks} + bonus cards {bonus} = {total}").format(
                rows=rows, stacks=stacks_points, bonus=bonus, total=seat.score))
        return lines

    def render_private(self, view: Any, ctx: RenderContext) -> str | None:
        t = ctx.t
        me = view.seats[view.seat]
        lines: list[str] = []
        gift = view.gift
        if gift is not None and gift.receiver == view.seat:
            lines.append(t.gettext("{giver} gave you {card}. The same animal is already in your row, so you may "
                                   "refuse it.").format(giver=ctx.name(gift.giver), card=card_name(gift.kind, t)))
            lines.append(t.gettext("Accept: both copies go to the discard pile. Refuse: the gift is discarded, and "
                                   "you discard one animal from a neighbouring row."))
        if view.hand:
            lines.append(t.gettext("Your hand:"))
            for number, card in enumerate(view.hand, 1):
                lines.append(f"{number}. {card_name(card[:2], t)} {self._effect(card[:2], me, t)}")
        elif view.phase != "OVER":
            lines.append(t.gettext("Your hand is empty."))
        rows = " · ".join(f"{MARKER[r.colour]} {len(r.kinds)}/{r.capacity}" for r in me.rows)
        lines.append(t.gettext("Your rows: {rows}").format(rows=rows))
        if view.phase == "OVER":
            lines.append(t.gettext("The game is over. Cards left in your hand score nothing."))
        return "\n".join(lines)

    def _effect(self, kind: str, me: Any, t: Translator) -> str:
        """What playing the card would do to the own row: a glance instead of counting."""
        row = me.rows[COLOURS.index(kind[0])]
        if kind in row.kinds:
            return "✖ " + t.gettext("already in your row: both would be discarded")
        if len(row.kinds) + 1 == row.capacity:
            return "✔ " + t.gettext("fills your row!")
        return f"→ {len(row.kinds) + 1}/{row.capacity}"

    # --- events ------------------------------------------------------------------------------
    def render_events(self, events: Sequence[Event], ctx: RenderContext) -> list[str]:
        out: list[str] = []
        held: list[str] = []  # protection lines wait for the gift sentence they follow from
        events = list(events)
        i = 0
        while i < len(events):
            e = events[i]
            nxt = events[i + 1] if i + 1 < len(events) else None
            # A card's arrival and its result read as one sentence: "Matti played X: blue row 2/5."
            if e.code in ("played", "gift_accepted") and nxt is not None and nxt.code == "placed":
                origin = "played" if e.code == "played" else ("forced" if e.p.get("forced") else "accepted")
                out.append(self._arrival(origin, e.p, nxt.p, ctx))
                i += 2
            else:
                line = self._event(e, ctx)
                i += 1
                if not line:
                    continue
                if e.code == "protection_moved":
                    held.append(line)
                    continue
                out.append(line)
            out.extend(held)
            held.clear()
        return out + held

    def _arrival(self, origin: str, first: dict[str, Any], placed: dict[str, Any], ctx: RenderContext) -> str:
        t = ctx.t
        kind, colour, result = placed["kind"], placed["colour"], placed["result"]
        values = {"name": ctx.name(placed["seat"]), "card": card_name(kind, t), "colour": colour_name(colour, t),
                  "count": placed["count"], "capacity": CAPACITY[colour]}
        if origin == "played":
            texts = {
                "added": t.gettext("{name} played {card}: {colour} row {count}/{capacity}."),
                "duplicate": t.gettext("{name} played {card}, but it was already in the row: both cards go to "
                                       "the discard pile."),
                "stack": t.gettext("{name} played {card}, and the {colour} row is full!"),
            }
        elif origin == "forced":
            # Self-contained: a gift that cannot be refused is told in this one sentence.
            values["giver"] = ctx.name(first["giver"])
            texts = {
                "added": t.gettext("{giver} gave {card} to {name}, who must take it: {colour} row "
                                   "{count}/{capacity}."),
                "duplicate": t.gettext("{giver} gave {card} to {name}, who must take it, but it was already in "
                                       "the row: both cards go to the discard pile."),
                "stack": t.gettext("{giver} gave {card} to {name}, who must take it, and the {colour} row is "
                                   "full!"),
            }
        else:
            texts = {
                "added": t.gettext("{name} accepted {card}: {colour} row {count}/{capacity}."),
                "duplicate": t.gettext("{name} accepted {card}, and both copies go to the discard pile."),
                "stack": t.gettext("{name} accepted {card}, and the {colour} row is full!"),
            }
        return texts[result].format(**values)

    def _event(self, e: Event, ctx: RenderContext) -> str | None:
        t = ctx.t
        p = e.p
        name = ctx.name(p["seat"]) if p.get("seat") is not None else ""
        match e.code:
            case "game_started" if e.public:
                return t.gettext("🌴 The game begins: {name} starts.").format(name=ctx.name(p["start_seat"]))
            case "game_started":
                cards = t.format_list([card_name(c[:2], t) for c in p["hand"]])
                return t.gettext("Your starting hand: {cards}.").format(cards=cards)
            case "placed":  # only after something other than a play or a gift (not in the engine today)
                return t.gettext("{name}: {colour} row {count}/{capacity}.").format(
                    name=name, colour=colour_name(p["colour"], t), count=p["count"], capacity=CAPACITY[p["colour"]])
            case "stack_completed":
                return t.ngettext("📚 {name} turns the row into a finished stack ({n} stack now).",
                                  "📚 {name} turns the row into a finished stack ({n} stacks now).",
                                  p["stacks"]).format(name=name, n=p["stacks"])
            case "bonus_taken":
                return t.gettext("🏅 {name} takes the bonus card {bonus} (+{points}).").format(
                    name=name, bonus=f"{MARKER[p['colour']]} {colour_name(p['colour'], t)}", points=p["points"])
            case "gave":
                if not p.get("pending"):
                    return None  # the forced acceptance that follows tells the whole gift
                receiver = p["receiver"]
                return t.gettext("{name} gave {card} to {receiver}. {receiver} may accept it or refuse it.").format(
                    name=name, card=card_name(p["kind"], t), receiver=ctx.name(receiver))
            case "protection_moved":
                return t.gettext("🛡️ {name} takes the protection card.").format(name=name)
            case "gift_accepted":
                return t.gettext("{name} accepted {card}.").format(name=name, card=card_name(p["kind"], t))
            case "gift_refused":
                return t.gettext("{name} refused {card} and discarded {removed} from a neighbouring row.").format(
                    name=name, card=card_name(p["kind"], t), removed=card_name(p["removed"], t))
            case "drew" if e.public:
                # Every turn ends with a draw and the table shows the pile, so only its end is news.
                n = p["deck_count"]
                if n == 0:
                    return t.gettext("{name} drew the last card of the draw pile.").format(name=name)
                if n > LOW_DECK:
                    return None
                return t.ngettext("{name} drew a card ({n} card left).", "{name} drew a card ({n} cards left).",
                                  n).format(name=name, n=t.format_number(n))
            case "drew":
                return t.gettext("You drew {card}.").format(card=card_name(p["kind"], t))
            case "skipped":
                return t.gettext("{name} has no cards and is skipped.").format(name=name)
            case "game_over":
                reason = p.get("reason")
                if reason == "stacks":
                    return t.gettext("🏁 {name} completed the deciding stack: the game is over!").format(name=name)
                if reason == "deck":
                    return t.gettext("🏁 The draw pile is used up: the game is over!")
                return t.gettext("🏁 Every hand is empty: the game is over!")
        return None  # played without placed, duplicate_discarded: said by the arrival sentence

    # --- actions -------------------------------------------------------------------------------
    def action_label(self, notation: str, view: Any, ctx: RenderContext) -> str:
        t = ctx.t
        match notation.split():
            case ["play", kind]:
                return t.gettext("Play {card}").format(card=f"{MARKER[kind[0]]} {animal(kind, t)}")
            case ["give", kind, seat]:
                return t.gettext("Give {card} → {name}").format(
                    card=f"{MARKER[kind[0]]} {animal(kind, t)}", name=ctx.name(_seat_no(seat)))
            case ["accept"]:
                return t.gettext("Accept")
            case ["refuse", kind]:
                return t.gettext("Refuse, discard {card}").format(card=f"{MARKER[kind[0]]} {animal(kind, t)}")
        return notation

    def button_rows(self, legal: Sequence[str], view: Any, ctx: RenderContext) -> list[list[tuple[str, str]]]:
        # Plays on one row; gifts one row per receiver; accept first, then the refusals in pairs.
        groups: dict[str, list[str]] = {}
        for n in legal:
            parts = n.split()
            key = f"give {parts[2]}" if parts[0] == "give" else parts[0]
            groups.setdefault(key, []).append(n)
        rows: list[list[tuple[str, str]]] = []
        for key, items in groups.items():
            width = 2 if key == "refuse" else 3
            labelled = [(self.action_label(n, view, ctx), n) for n in items]
            rows.extend(labelled[i:i + width] for i in range(0, len(labelled), width))
        return rows

    def group_actions(self, legal: Sequence[str], public_view: Any) -> tuple[str, ...]:
        # A pending gift and the receiver's choices follow from public rows (spec §7.1); plays and
        # gifts would list the hand, so those buttons stay in the private chat.
        if public_view.phase == "GIFT":
            return tuple(legal)
        return ()

    def parse(self, text: str, ctx: ParseContext) -> ParseResult:
        return coloretto_amazonas_parser.parse(text, ctx)

    def reason_text(self, code: str, params: dict[str, Any], ctx: RenderContext) -> str:
        t = ctx.t
        kind = params.get("kind")
        if code == "protected" and params.get("seat") is not None:
            return t.gettext(REASONS[code]).format(name=ctx.name(params["seat"]))
        if code == "not_in_hand" and kind:
            return t.gettext("You don't have {card} in your hand. Choose one of your own cards.").format(
                card=card_name(kind, t))
        if code == "not_neighbour" and kind:
            rows = t.format_list([colour_name(c, t) for c in NEIGHBOURS[kind[0]]], style="or")
            return t.gettext("The animal you remove must come from a row next to the gift's colour: "
                             "here the {rows} row.").format(rows=rows)
        if code == "wrong_row" and kind:
            return t.gettext("An animal card can only go into the row of its own colour: {card} goes "
                             "{row}.").format(card=card_name(kind, t), row=into_row(kind[0], t))
        if code == "no_such_position":
            count = int(params.get("count", 0))
            return t.ngettext("You have only {n} card in your hand. Name it by its animal or as card 1.",
                              "You have only {n} cards in your hand. Name a card by its animal or as card 1–{n}.",
                              count).format(n=count)
        if code == "no_colour_in_hand" and params.get("colour"):
            return t.gettext("You have no {colour} card in your hand. Choose one of your own cards.").format(
                colour=colour_name(params["colour"], t))
        if code in REASONS:
            return t.gettext(REASONS[code])
        return t.gettext(REASONS["unknown_action"])

    def render_image(self, view: Any, ctx: RenderContext) -> bytes | None:
        # One picture of the final table: rows, stacks and scores of everyone read better at a
        # glance than text. During play the text table is enough (and is edited in place).
        if view.phase != "OVER":
            return None
        from chatbot.games import coloretto_amazonas_render  # Pillow only when a picture is made

        return coloretto_amazonas_render.table_png(view, ctx)


UI = ColorettoAmazonasUI()
