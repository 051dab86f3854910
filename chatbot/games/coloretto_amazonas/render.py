"""Coloretto Amazonas texts for people: the names of animals and colours, the public table, a seat's
private panel, the lines that tell what happened (events) and why a move is refused.

Renderers take views only. The group sees the public table (every seat's rows, stack colours,
bonus cards, the protection card, pile sizes, hand sizes, scores) and public events; a seat's hand
and the card it drew reach only that seat's private chat (spec §7.4). Public events carry card
instance ids, but texts name only kinds, so a group transcript does not depend on the shuffle
(spec §7.5 invariant 2).

Cards are written "[🟦 piraija]" in events and "[piraija]" in rows: the brackets make every animal
in a text easy to spot for players and exact to find for the no-leak checks (``UI.cards_in``).
Finnish templates keep player names and animal names in the nominative ("antoi kortin [🟦 piraija]
pelaajalle Liisa"), since endings cannot be glued to arbitrary names (DESIGN.md §10).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chatbot.core.gameui import RenderContext
from chatbot.core.i18n import N_, Translator
from chatbot.games.coloretto_amazonas.texts import REASONS
from engines.coloretto_amazonas.model import (
    CAPACITY,
    COLOURS,
    NEIGHBOURS,
    OVER,
    PrivateView,
    PublicView,
    RowView,
    SeatView,
)
from engines.contract import Event

MARKER = {"B": "🟦", "P": "🟪", "R": "🟫", "G": "🟩"}
LOW_DECK = 5  # from this many cards left, every draw is announced: the end is near

# Display names of the animals (spec §2.2); the Finnish catalog gives the Finnish names.
ANIMALS = {
    "B1": N_("Amazon river dolphin"), "B2": N_("piranha"), "B3": N_("electric eel"), "B4": N_("arapaima"),
    "B5": N_("Amazonian manatee"), "P1": N_("scarlet macaw"), "P2": N_("toucan"), "P3": N_("harpy eagle"),
    "P4": N_("hummingbird"), "R1": N_("anaconda"), "R2": N_("caiman"), "R3": N_("iguana"), "G1": N_("jaguar"),
    "G2": N_("sloth"), "G3": N_("tapir"), "G4": N_("capybara"), "G5": N_("poison dart frog"),
    "G6": N_("spider monkey"),
}  # fmt: skip


# ---------------------------------------------------------------------------------------------
# Names


def title(t: Translator) -> str:
    return "🦜 " + t.gettext("Coloretto Amazonas")


def animal(kind: str, t: Translator) -> str:
    return t.gettext(ANIMALS[kind])


def card_name(kind: str, t: Translator) -> str:
    """An animal card for people: "[🟦 piraija]"."""
    return f"[{MARKER[kind[0]]} {animal(kind, t)}]"


def marked_animal(kind: str, t: Translator) -> str:
    """An animal with its colour marker, unbracketed (button labels): "🟦 piraija"."""
    return f"{MARKER[kind[0]]} {animal(kind, t)}"


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


# ---------------------------------------------------------------------------------------------
# The table and the private panel


def table(view: PublicView, ctx: RenderContext) -> str:
    """The public table: whose turn, the piles, bonus cards, protection, then every seat."""
    t = ctx.t
    lines = [title(t), _status_line(view, ctx)]
    lines.append(
        t.gettext("Draw pile: {deck} · discard pile: {discard}").format(
            deck=t.format_number(view.deck_count), discard=t.format_number(view.discard_count)
        )
        + " · "
        + t.ngettext("{n} stack ends the game", "{n} stacks end the game", view.stacks_to_end).format(
            n=view.stacks_to_end
        )
    )
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
    over = view.phase == OVER
    for seat in view.seats:
        lines.append("")
        lines.extend(_seat_lines(seat, view, ctx, over))
    if over:
        lines.append("")
        lines.append(t.gettext("Cards left in hand score nothing."))
    return "\n".join(lines)


def _status_line(view: PublicView, ctx: RenderContext) -> str:
    t = ctx.t
    if view.phase == OVER:
        return t.gettext("🏁 The game is over.")
    if view.phase == "GIFT" and view.gift is not None:
        g = view.gift
        return t.gettext("▶ {receiver} decides: accept {card} from {giver}, or refuse it.").format(
            receiver=ctx.name(g.receiver), card=card_name(g.kind, t), giver=ctx.name(g.giver)
        )
    assert view.active is not None
    return t.gettext("▶ Turn: {name} – play a card or give one.").format(name=ctx.name(view.active))


def _row_text(row: RowView, t: Translator) -> str:
    cards = " ".join(f"[{animal(k, t)}]" for k in row.kinds) or "–"
    return f"{MARKER[row.colour]} {len(row.kinds)}/{row.capacity} {cards}"


def _seat_lines(seat: SeatView, view: PublicView, ctx: RenderContext, over: bool) -> list[str]:
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
        lines.append(
            "  "
            + t.gettext("Stacks: {stacks} · bonus cards: {bonuses}").format(stacks=stacks, bonuses=bonuses)
        )
    if over:
        score_table = view.options.score_table
        rows = sum(score_table[len(r.kinds)] for r in seat.rows)
        stacks_points = sum(score_table[CAPACITY[c]] for c in seat.stacks)
        bonus = sum(view.options.bonus_values[COLOURS.index(c)] for c in seat.bonuses)
        lines.append(
            "  "
            + t.gettext("Rows {rows} + stacks {stacks} + bonus cards {bonus} = {total}").format(
                rows=rows, stacks=stacks_points, bonus=bonus, total=seat.score
            )
        )
    return lines


def final_score(seat: int, score: int, view: PublicView, ctx: RenderContext) -> str:
    """A seat's final points and how they were made, for the final standings."""
    t = ctx.t
    points = t.ngettext("{n} point", "{n} points", score).format(n=t.format_number(score))
    me = next((s for s in view.seats if s.seat == seat), None)
    if me is None:
        return points
    score_table = view.options.score_table
    rows = sum(score_table[len(r.kinds)] for r in me.rows)
    stacks = sum(score_table[CAPACITY[c]] for c in me.stacks)
    bonus = sum(view.options.bonus_values[COLOURS.index(c)] for c in me.bonuses)
    made = t.gettext("rows {rows} + stacks {stacks} + bonus cards {bonus}").format(
        rows=rows, stacks=stacks, bonus=bonus
    )
    return f"{points} ({made})"


def private(view: PrivateView, ctx: RenderContext) -> str:
    """The seat's own panel: a gift it may refuse, its numbered hand with what each card would do."""
    t = ctx.t
    me = view.seats[view.seat]
    lines: list[str] = []
    gift = view.gift
    if gift is not None and gift.receiver == view.seat:
        lines.append(
            t.gettext(
                "{giver} gave you {card}. The same animal is already in your row, so you may refuse it."
            ).format(giver=ctx.name(gift.giver), card=card_name(gift.kind, t))
        )
        lines.append(
            t.gettext(
                "Accept: both copies go to the discard pile. Refuse: the gift is discarded, and "
                "you discard one animal from a neighbouring row."
            )
        )
    if view.hand:
        lines.append(t.gettext("Your hand:"))
        for number, card in enumerate(view.hand, 1):
            lines.append(f"{number}. {card_name(card[:2], t)} {_effect(card[:2], me, t)}")
    elif view.phase != OVER:
        lines.append(t.gettext("Your hand is empty."))
    rows = " · ".join(f"{MARKER[r.colour]} {len(r.kinds)}/{r.capacity}" for r in me.rows)
    lines.append(t.gettext("Your rows: {rows}").format(rows=rows))
    if view.phase == OVER:
        lines.append(t.gettext("The game is over. Cards left in your hand score nothing."))
    return "\n".join(lines)


def _effect(kind: str, me: SeatView, t: Translator) -> str:
    """What playing the card would do to the own row: a glance instead of counting."""
    row = me.rows[COLOURS.index(kind[0])]
    if kind in row.kinds:
        return "✖ " + t.gettext("already in your row: both would be discarded")
    if len(row.kinds) + 1 == row.capacity:
        return "✔ " + t.gettext("fills your row!")
    return f"→ {len(row.kinds) + 1}/{row.capacity}"


# ---------------------------------------------------------------------------------------------
# Events


def events(evs: Sequence[Event], ctx: RenderContext) -> list[str]:
    """Lines for the events one recipient may see, in order; an arrival and its result are one line."""
    out: list[str] = []
    held: list[str] = []  # protection lines wait for the gift sentence they follow from
    items = list(evs)
    i = 0
    while i < len(items):
        e = items[i]
        nxt = items[i + 1] if i + 1 < len(items) else None
        # A card's arrival and its result read as one sentence: "Matti played X: blue row 2/5."
        if e.code in ("played", "gift_accepted") and nxt is not None and nxt.code == "placed":
            origin = "played" if e.code == "played" else ("forced" if e.p.get("forced") else "accepted")
            out.append(_arrival(origin, e.p, nxt.p, ctx))
            i += 2
        else:
            line = _event(e, ctx)
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


def _arrival(origin: str, first: dict[str, Any], placed: dict[str, Any], ctx: RenderContext) -> str:
    t = ctx.t
    kind, colour, result = placed["kind"], placed["colour"], placed["result"]
    values = {
        "name": ctx.name(placed["seat"]),
        "card": card_name(kind, t),
        "colour": colour_name(colour, t),
        "count": placed["count"],
        "capacity": CAPACITY[colour],
    }
    if origin == "played":
        texts = {
            "added": t.gettext("{name} played {card}: {colour} row {count}/{capacity}."),
            "duplicate": t.gettext(
                "{name} played {card}, but it was already in the row: both cards go to the discard pile."
            ),
            "stack": t.gettext("{name} played {card}, and the {colour} row is full!"),
        }
    elif origin == "forced":
        # Self-contained: a gift that cannot be refused is told in this one sentence.
        values["giver"] = ctx.name(first["giver"])
        texts = {
            "added": t.gettext(
                "{giver} gave {card} to {name}, who must take it: {colour} row {count}/{capacity}."
            ),
            "duplicate": t.gettext(
                "{giver} gave {card} to {name}, who must take it, but it was already in "
                "the row: both cards go to the discard pile."
            ),
            "stack": t.gettext(
                "{giver} gave {card} to {name}, who must take it, and the {colour} row is full!"
            ),
        }
    else:
        texts = {
            "added": t.gettext("{name} accepted {card}: {colour} row {count}/{capacity}."),
            "duplicate": t.gettext("{name} accepted {card}, and both copies go to the discard pile."),
            "stack": t.gettext("{name} accepted {card}, and the {colour} row is full!"),
        }
    return texts[result].format(**values)


def _event(e: Event, ctx: RenderContext) -> str | None:
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
                name=name,
                colour=colour_name(p["colour"], t),
                count=p["count"],
                capacity=CAPACITY[p["colour"]],
            )
        case "stack_completed":
            return t.ngettext(
                "📚 {name} turns the row into a finished stack ({n} stack now).",
                "📚 {name} turns the row into a finished stack ({n} stacks now).",
                p["stacks"],
            ).format(name=name, n=p["stacks"])
        case "bonus_taken":
            return t.gettext("🏅 {name} takes the bonus card {bonus} (+{points}).").format(
                name=name, bonus=f"{MARKER[p['colour']]} {colour_name(p['colour'], t)}", points=p["points"]
            )
        case "gave":
            if not p.get("pending"):
                return None  # the forced acceptance that follows tells the whole gift
            receiver = p["receiver"]
            return t.gettext(
                "{name} gave {card} to {receiver}. {receiver} may accept it or refuse it."
            ).format(name=name, card=card_name(p["kind"], t), receiver=ctx.name(receiver))
        case "protection_moved":
            return t.gettext("🛡️ {name} takes the protection card.").format(name=name)
        case "gift_accepted":
            return t.gettext("{name} accepted {card}.").format(name=name, card=card_name(p["kind"], t))
        case "gift_refused":
            return t.gettext("{name} refused {card} and discarded {removed} from a neighbouring row.").format(
                name=name, card=card_name(p["kind"], t), removed=card_name(p["removed"], t)
            )
        case "drew" if e.public:
            # Every turn ends with a draw and the table shows the pile, so only its end is news.
            n = p["deck_count"]
            if n == 0:
                return t.gettext("{name} drew the last card of the draw pile.").format(name=name)
            if n > LOW_DECK:
                return None
            return t.ngettext(
                "{name} drew a card ({n} card left).", "{name} drew a card ({n} cards left).", n
            ).format(name=name, n=t.format_number(n))
        case "drew":
            return t.gettext("You drew {card}.").format(card=card_name(p["kind"], t))
        case "skipped":
            return t.gettext("{name} has no cards and is skipped.").format(name=name)
        case "game_over":
            reason = p.get("reason")
            if reason == "stacks":
                return t.gettext("🏁 {name} completed the deciding stack: the game is over!").format(
                    name=name
                )
            if reason == "deck":
                return t.gettext("🏁 The draw pile is used up: the game is over!")
            return t.gettext("🏁 Every hand is empty: the game is over!")
    return None  # played without placed, duplicate_discarded: said by the arrival sentence


# ---------------------------------------------------------------------------------------------
# Refusals


def reason_text(code: str, params: Mapping[str, Any], ctx: RenderContext) -> str:
    """Why an action is refused and the way forward (codes of the engine and of the parser)."""
    t = ctx.t
    kind = params.get("kind")
    if code == "protected" and params.get("seat") is not None:
        return t.gettext(REASONS[code]).format(name=ctx.name(params["seat"]))
    if code == "not_in_hand" and kind:
        return t.gettext("You don't have {card} in your hand. Choose one of your own cards.").format(
            card=card_name(kind, t)
        )
    if code == "not_neighbour" and kind:
        rows = t.format_list([colour_name(c, t) for c in NEIGHBOURS[kind[0]]], style="or")
        return t.gettext(
            "The animal you remove must come from a row next to the gift's colour: here the {rows} row."
        ).format(rows=rows)
    if code == "wrong_row" and kind:
        return t.gettext(
            "An animal card can only go into the row of its own colour: {card} goes {row}."
        ).format(card=card_name(kind, t), row=into_row(kind[0], t))
    if code == "no_such_position":
        count = int(params.get("count", 0))
        return t.ngettext(
            "You have only {n} card in your hand. Name it by its animal or as card 1.",
            "You have only {n} cards in your hand. Name a card by its animal or as card 1–{n}.",
            count,
        ).format(n=count)
    if code == "no_colour_in_hand" and params.get("colour"):
        return t.gettext("You have no {colour} card in your hand. Choose one of your own cards.").format(
            colour=colour_name(params["colour"], t)
        )
    if code in REASONS:
        return t.gettext(REASONS[code])
    return t.gettext(REASONS["unknown_action"])
