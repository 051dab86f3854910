"""Gnav's text: the public table, a seat's private panel, the events, and the refusal reasons.

Every function takes a view (or the events a recipient may see), never a state. The group sees the public
table: lives, who rests or is out, the dealer, whose turn it is, every card the rules make public (a fool, a
matador that answered, all seat cards at the end of a deal) and each exchange as it happens, by seat names
only. A seat's own card and what it learnt in an exchange reach only its private chat (spec §6).

Cards are written by rank, never by the engine's instance id: "[VII]", "[🐎 hevonen]". The brackets
make every card in a text easy to spot for players and exact to find for the no-leak checks
(``GnavUI.cards_in``). The matadors' traditional calls are quoted with the call and its effect in the
reader's language (spec §8.5); their Finnish templates keep player names in the nominative.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chatbot.core.gameui import RenderContext
from chatbot.core.i18n import Translator
from chatbot.games.gnav.texts import NAMED_REASONS, REASON_TOPIC, REASONS, TOPIC_TEXT
from engines.contract import Event
from engines.gnav.model import KNOCK, MATADORS, OVER, TURN, View, rank_of

ROMAN = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII")
MARKER = {
    "fool": "🃏",
    "owl": "🦉",
    "pot": "🪴",
    "house": "🏠",
    "horse": "🐎",
    "cat": "🐈",
    "dragoon": "⚔️",
    "cuckoo": "🐦",
}


def title(t: Translator) -> str:
    return "🐦 " + t.gettext("Gnav (cuckoo game)")


# --- cards -------------------------------------------------------------------------------------------


def rank_name(rank: str, t: Translator) -> str:
    """The name of a rank: "VII", "0", "hevonen"."""
    if rank.startswith("n") and rank[1:].isdigit():
        return ROMAN[int(rank[1:]) - 1]
    match rank:
        case "zero":
            return "0"
        case "fool":
            return t.pgettext("gnav card", "fool")
        case "owl":
            return t.pgettext("gnav card", "owl")
        case "pot":
            return t.pgettext("gnav card", "pot")
        case "house":
            return t.pgettext("gnav card", "house")
        case "horse":
            return t.pgettext("gnav card", "horse")
        case "cat":
            return t.pgettext("gnav card", "cat")
        case "dragoon":
            return t.pgettext("gnav card", "dragoon")
        case "cuckoo":
            return t.pgettext("gnav card", "cuckoo")
    return rank


def card_name(rank_or_id: str, t: Translator) -> str:
    """A card for people from a rank id or an instance id: "[VII]", "[🐎 hevonen]"."""
    rank = rank_of(rank_or_id)
    marker = MARKER.get(rank)
    return f"[{marker} {rank_name(rank, t)}]" if marker else f"[{rank_name(rank, t)}]"


def hearts(lives: int) -> str:
    return f"❤️×{lives}" if lives > 0 else "✖"


def lives_left(n: int, t: Translator) -> str:
    return t.ngettext("{n} life left", "{n} lives left", n).format(n=n)


# --- the table, the private panel and the events -------------------------------------------------


def table(view: View, ctx: RenderContext) -> str:
    """The public table: the deal, whose turn it is, every seat with its lives and public card."""
    t = ctx.t
    lines = [t.gettext("{game} – deal {deal}").format(game=title(t), deal=view.deal), _status_line(view, ctx)]
    in_deal = [s for s in view.order if s not in view.departed]
    for number, seat in enumerate(view.order, 1):
        lines.append(f"{number}. " + _seat_line(seat, view, ctx))
    others = [s for s in range(view.players) if s not in view.order]
    for seat in others:
        lines.append("   " + _seat_line(seat, view, ctx))
    if view.phase != OVER and len(in_deal) >= 2:
        lines.append(
            t.ngettext("Stock: {n} card", "Stock: {n} cards", view.stock_size).format(
                n=t.format_number(view.stock_size)
            )
        )
    return "\n".join(lines)


def _status_line(view: View, ctx: RenderContext) -> str:
    t = ctx.t
    if view.phase == OVER:
        return t.gettext("🏁 The match is over.")
    if view.phase == KNOCK:
        return t.gettext("▶ A player dealt the fool knocks first; then the turns begin.")
    seat = view.order[view.turn]
    if seat == view.dealer:
        return t.gettext("▶ Turn: {name} (dealer) – keep, or swap with the stock.").format(
            name=ctx.name(seat)
        )
    return t.gettext("▶ Turn: {name} – keep, or ask for a swap.").format(name=ctx.name(seat))


def _seat_line(seat: int, view: View, ctx: RenderContext) -> str:
    t = ctx.t
    parts = [ctx.name(seat), hearts(view.lives[seat])]
    card = view.hands[seat]
    if card is not None:
        parts.append(card_name(card, t))
    notes = []
    if view.lives[seat] == 0:
        notes.append(t.pgettext("seat", "out"))
    elif seat in view.resting:
        notes.append("😴 " + t.pgettext("seat", "resting"))
    if seat == view.dealer and view.phase != OVER:
        notes.append(t.pgettext("seat", "dealer"))
    line = " ".join(parts) + ("" if not notes else " · " + " · ".join(notes))
    # in the knock phase the seats to act are the holders of unshown fools: no mark for them
    if view.phase == TURN and seat in view.to_act:
        line += " ◀"
    return line


def private(view: View, ctx: RenderContext) -> str:
    """A seat's private panel: its lives, its card and what it knows, where its request would go."""
    t = ctx.t
    seat = view.seat
    assert seat is not None, "the private panel is a seat's"
    lines = [t.gettext("Your lives: {hearts}").format(hearts=hearts(view.lives[seat]))]
    if view.phase == OVER:
        lines.append(t.gettext("The match is over."))
        return "\n".join(lines)
    if view.lives[seat] == 0:
        lines.append(t.gettext("You are out of the match; you can follow the rest in the group."))
        return "\n".join(lines)
    if seat in view.resting:
        lines.append(t.gettext("😴 You rest this deal: no card, no turn, no lives at stake."))
        return "\n".join(lines)
    if view.own_card is not None:
        own = rank_of(view.own_card)
        lines.append(t.gettext("Your card: {card}").format(card=card_name(own, t)))
        if own in MATADORS:
            lines.append(t.gettext("It is a matador: nobody can make you hand it over."))
        elif own == "fool":
            lines.append(t.gettext("The fool is shown to everyone."))
    known = [
        f"{ctx.name(s)} {card_name(c, t)}" for s, c in enumerate(view.hands) if s != seat and c is not None
    ]
    if known:
        lines.append(t.gettext("You know: {cards}").format(cards=", ".join(known)))
    stock = [card_name(c, t) for _, c in sorted(view.stock_known)]
    if stock:
        lines.append(t.gettext("You know the stock from the top: {cards}").format(cards=", ".join(stock)))
    if (
        view.phase == TURN
        and seat in view.order
        and seat not in view.departed
        and view.order.index(seat) >= view.turn
    ):
        responder = view.responder()
        if responder is None:
            lines.append(t.gettext("As the dealer, you would swap with the top card of the stock."))
        else:
            lines.append(
                t.gettext("If you ask for a swap, the request goes first to {name}.").format(
                    name=ctx.name(responder)
                )
            )
    return "\n".join(lines)


def event_lines(seen: Sequence[Event], ctx: RenderContext) -> list[str]:
    """Lines for the events one recipient may see; a refusal is told with its life loss and undo."""
    events = list(seen)
    out: list[str] = []
    used: set[int] = set()  # events already told as part of an earlier line
    cards: tuple[tuple[int, str], ...] = ()  # the seat cards of the last reveal, for the settlement
    departed: tuple[int, ...] = ()
    # nobody rests in a next deal that never comes: the last settlement says only what is still true
    ended = any(e.code == "match_ended" for e in events)
    for i, e in enumerate(events):
        if i in used:
            continue
        if e.code == "cards_revealed":
            cards, departed = tuple(e["cards"]), tuple(e["departed"])
        if e.code == "refused":
            out.extend(_refused(events, i, used, ctx))
        elif e.code == "deal_settled":
            out.extend(_settled(e, cards, departed, ctx, ended))
        else:
            out.extend(_event(e, ctx))
    return out


def _refused(events: list[Event], i: int, used: set[int], ctx: RenderContext) -> list[str]:
    """A matador refusal, told with its life loss and the cat's undo in one sentence (spec §8.5)."""
    t = ctx.t
    p = events[i].p
    asker, rank = ctx.name(p["asker"]), p["rank"]
    holder = ctx.name(p["holder"]) if p["holder"] is not None else None
    lives: int | None = None
    undone = False  # the default cat's undo follows in the same batch; the traditional cat has none
    for j in range(i + 1, len(events)):
        e = events[j]
        if lives is None and e.code == "life_lost" and e["seat"] == p["asker"] and e["cause"] == rank:
            lives = e["lives"]
            used.add(j)
        elif e.code == "exchanges_undone":
            undone = True
    left = lives_left(lives, t) if lives is not None else ""
    values = {"asker": asker, "holder": holder, "lives": left}
    if rank == "cuckoo":
        text = (
            t.gettext(
                "“Stå for gjøk!” – Stop, cuckoo! {holder} shows a cuckoo. The deal ends at once; "
                "{asker} keeps their card."
            )
            if holder
            else t.gettext(
                "A cuckoo comes off the stock – “Stå for gjøk!” Stop, cuckoo! The deal ends at once; "
                "{asker} keeps their card."
            )
        )
    elif rank == "dragoon":
        text = (
            t.gettext(
                "“Hogg av!” – Chop! {holder} shows a dragoon. {asker} loses a life ({lives}) and "
                "keeps their card."
            )
            if holder
            else t.gettext(
                "A dragoon comes off the stock – “Hogg av!” Chop! {asker} loses a life ({lives}) and "
                "keeps their card."
            )
        )
    elif undone:
        text = (
            t.gettext(
                "“Kiss!” – Puss! {holder} shows a cat. {asker} loses a life ({lives}), and every swap "
                "of this deal is undone."
            )
            if holder
            else t.gettext(
                "A cat comes off the stock – “Kiss!” Puss! {asker} loses a life ({lives}), and every "
                "swap of this deal is undone."
            )
        )
    else:  # the traditional cat: like the dragoon
        text = (
            t.gettext(
                "“Kiss!” – Puss! {holder} shows a cat. {asker} loses a life ({lives}) and keeps their card."
            )
            if holder
            else t.gettext(
                "A cat comes off the stock – “Kiss!” Puss! {asker} loses a life ({lives}) and keeps "
                "their card."
            )
        )
    return [text.format(**values)]


def _settled(
    e: Event, cards: tuple[tuple[int, str], ...], departed: tuple[int, ...], ctx: RenderContext, ended: bool
) -> list[str]:
    """Who lost a life at settlement and why, who is out and who rests (spec §3.7)."""
    t = ctx.t
    p = e.p
    rank = {s: r for s, r in cards if s not in departed}
    fools = [s for s, r in rank.items() if r == "fool"]
    lines = []
    for seat in p["losers"]:
        values = {
            "name": ctx.name(seat),
            "lives": lives_left(p["lives"][seat], t),
            "card": card_name(rank.get(seat, "fool"), t),
        }
        if seat in fools:
            text = t.gettext("💔 {name}: the fool – loses a life ({lives}).")
        elif fools:
            text = t.gettext("💔 {name}: the lowest card besides the fool, {card} – loses a life ({lives}).")
        else:
            text = t.gettext("💔 {name}: the lowest card, {card} – loses a life ({lives}).")
        lines.append(text.format(**values))
    for seat in p["eliminated"]:
        lines.append(t.gettext("💀 {name} is out of the match.").format(name=ctx.name(seat)))
    for seat in () if ended else p["rests"]:
        lines.append(
            t.gettext("😴 {name} held the fool and rests in the next deal.").format(name=ctx.name(seat))
        )
    return lines


def _event(e: Event, ctx: RenderContext) -> list[str]:
    t = ctx.t
    p = e.p
    name = ctx.name(p["seat"]) if p.get("seat") is not None else ""
    match e.code:
        case "deal_started":
            lines = [
                t.gettext("━━━━ Deal {deal} ━━━━").format(deal=p["deal"]),
                t.gettext("Dealer: {dealer}. Order: {order}.").format(
                    dealer=ctx.name(p["dealer"]), order=" → ".join(ctx.name(s) for s in p["order"])
                ),
            ]
            if p["resting"]:
                lines.append(
                    t.gettext("😴 Resting this deal: {names}.").format(
                        names=t.format_list([ctx.name(s) for s in p["resting"]])
                    )
                )
            return lines
        case "deal_skipped":
            return [
                t.gettext(
                    "Deal {deal} is skipped: fewer than two players can take part, so nobody loses anything."
                ).format(deal=p["deal"])
            ]
        case "your_card":
            return [t.gettext("New deal: your card is {card}.").format(card=card_name(p["rank"], t))]
        case "fool_shown":
            source = p["source"]
            if source == "knock":
                return [
                    t.gettext("{name} knocks: “Knock knock!” The card is {card}.").format(
                        name=name, card=card_name("fool", t)
                    )
                ]
            if source == "stock":
                return [
                    t.gettext("{name} got {card} from the stock, and it is shown to everyone.").format(
                        name=name, card=card_name("fool", t)
                    )
                ]
            return [
                t.gettext("“Knock knock!” {name} was dealt {card}, and it is shown to everyone.").format(
                    name=name, card=card_name("fool", t)
                )
            ]
        case "kept":
            return [t.gettext("{name} keeps their card.").format(name=name)]
        case "requested":
            return [t.gettext("{name} asks for a swap.").format(name=name)]
        case "passed_by":
            if p["rank"] == "horse":
                return [
                    t.gettext(
                        "“Hest forbi!” – Horse, go past! {name} shows a horse; the request moves on."
                    ).format(name=name)
                ]
            return [
                t.gettext(
                    "“Hus forbi!” – House, go past! {name} shows a house; the request moves on."
                ).format(name=name)
            ]
        case "stock_passed_by":
            if p["rank"] == "horse":
                return [
                    t.gettext("A horse comes off the stock – “Hest forbi!” Horse, go past! Drawing again.")
                ]
            return [t.gettext("A house comes off the stock – “Hus forbi!” House, go past! Drawing again.")]
        case "swapped":
            return [
                t.gettext("{asker} and {partner} swap cards.").format(
                    asker=ctx.name(p["asker"]), partner=ctx.name(p["partner"])
                )
            ]
        case "stock_swapped":
            return [
                t.gettext("{asker} swaps with the top card of the stock.").format(asker=ctx.name(p["asker"]))
            ]
        case "received" if p["partner"] is None:
            return [t.gettext("From the stock you got {card}.").format(card=card_name(p["rank"], t))]
        case "received":
            return [
                t.gettext("Swap with {name}: you got {card}.").format(
                    name=ctx.name(p["partner"]), card=card_name(p["rank"], t)
                )
            ]
        case "life_lost" if p["cause"] == "settlement":
            return []  # told with the settlement
        case "life_lost":  # only when not told with its refusal
            return [
                t.gettext("{name} loses a life ({lives}).").format(name=name, lives=lives_left(p["lives"], t))
            ]
        case "eliminated" if p["cause"] == "settlement":
            return []  # told with the settlement
        case "eliminated":
            return [
                t.gettext(
                    "💀 {name} is out of the match at once; their card no longer counts in this deal."
                ).format(name=name)
            ]
        case "exchanges_undone":
            if not p["exchanges"]:
                return [t.gettext("There were no swaps to undo.")]
            stock = t.gettext("the stock")
            pairs = [f"{ctx.name(a)} ↔ {ctx.name(b) if b is not None else stock}" for a, b in p["exchanges"]]
            return [t.gettext("Undone: {swaps}.").format(swaps=", ".join(pairs))]
        case "card_restored":
            return [
                t.gettext("The cat undid the swaps: your card is {card} again.").format(
                    card=card_name(p["rank"], t)
                )
            ]
        case "cards_revealed":
            shown = []
            for seat, rank in p["cards"]:
                item = f"{ctx.name(seat)} {card_name(rank, t)}"
                if seat in p["departed"]:
                    item += " (" + t.pgettext("seat", "out") + ")"
                shown.append(item)
            return [t.gettext("Cards up: {cards}").format(cards=", ".join(shown))]
        case "deal_uncontested":
            return [
                t.gettext(
                    "Only one player is left in the deal, so the cards are not compared and nobody "
                    "else loses a life."
                )
            ]
        case "match_ended" if p["draw"]:
            return [
                t.gettext(
                    "🏁 The match ends in a draw: {names} lost their last lives at the same time."
                ).format(names=t.format_list([ctx.name(s) for s in p["winners"]]))
            ]
        case "match_ended":
            return [
                t.gettext("🏁 The match is over: {name} is the only one with lives left.").format(
                    name=t.format_list([ctx.name(s) for s in p["winners"]])
                )
            ]
    return []  # deal_ended: the next deal's header or the match end says it


# --- refusals ---------------------------------------------------------------------------------------


def reason_text(code: str, params: dict[str, Any], ctx: RenderContext) -> str:
    """Why a move is refused, with the way forward, and the rule that explains it (spec §9)."""
    t = ctx.t
    named = NAMED_REASONS.get(code)
    if named is not None:
        param, with_name, without = named
        seat = params.get(param)
        text = t.gettext(with_name).format(name=ctx.name(seat)) if seat is not None else t.gettext(without)
    else:
        text = t.gettext(REASONS.get(code, REASONS["unknown_action"]))
    topic = REASON_TOPIC.get(code)
    return text + ("\n" + t.gettext(TOPIC_TEXT[topic]) if topic else "")
