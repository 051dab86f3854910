"""Majavajengi's texts from views and events: the table, a seat's private panel, event lines, reasons.

Renderers take views only. The public table never shows a layout value (not even a publicly known
one, spec §7.2); a seat's private panel shows its held card and, with the memory aid on, every
value the seat knows. With the memory aid off a value reaches a player only in the message of the
event that showed it (spec §7.5 invariant 4).

Every card value in a text is written in brackets ("[7]", "[🔄 Vaihto]"): players spot them at a
glance, and the no-leak scan (``GameUI.cards_in``) finds them exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chatbot.core.gameui import RenderContext
from chatbot.core.i18n import Translator
from chatbot.games.majavajengi.texts import NOT_ALLOWED, REASONS
from engines.contract import Event
from engines.majavajengi.model import MajavajengiSeatView, MajavajengiView

SPECIAL_EMOJI = {"SWAP": "🔄", "PEEK": "🔍", "DRAW2": "➕"}


def title(t: Translator) -> str:
    return "🦫 " + t.gettext("Majavajengi")


def card_name(kind: str | None, t: Translator) -> str:
    """A card for people: "[7]", "[🔄 Vaihto]"."""
    if kind is None:
        return "?"
    if kind.startswith("N"):
        return f"[{kind[1:]}]"
    names = {
        "SWAP": t.pgettext("card", "Swap"),
        "PEEK": t.pgettext("card", "Peek"),
        "DRAW2": t.pgettext("card", "Draw 2"),
    }
    return f"[{SPECIAL_EMOJI[kind]} {names[kind]}]"


def _slots(values: Sequence[str | None], t: Translator) -> str:
    return "  ".join(f"{i}:{card_name(v, t) if v else '🂠'}" for i, v in enumerate(values, 1))


# --- the table -------------------------------------------------------------------------------------


def table(view: MajavajengiView, ctx: RenderContext) -> str:
    t = ctx.t
    lines = [
        t.gettext("{game} – round {round}/{rounds}").format(
            game=title(t), round=view.round, rounds=view.rounds
        )
    ]
    if view.phase != "over" and view.turn is not None:
        lines.append(_turn_line(view, view.turn, ctx))
    top = card_name(view.discard_top, t) if view.discard_top else t.gettext("empty")
    lines.append(
        t.gettext("Discard pile: {top} · draw pile: {n}").format(top=top, n=t.format_number(view.draw_pile))
    )
    for seat in range(view.players):
        marks = ""
        if view.knocker == seat:
            marks += " ✊"
        if view.turn == seat and view.phase != "over":
            marks += " ◀"
        row = view.layouts[seat] if view.revealed else (None,) * 4
        total = view.totals[seat]
        lines.append(
            t.gettext("{name}: {cards} (score so far {total}){marks}").format(
                name=ctx.name(seat), cards=_slots(row, t), total=t.format_number(total), marks=marks
            )
        )
    if view.knocker is not None and view.phase != "over" and view.last_lap_left:
        lines.append(
            t.ngettext(
                "{name} knocked: {n} turn left in this round.",
                "{name} knocked: {n} turns left in this round.",
                view.last_lap_left,
            ).format(name=ctx.name(view.knocker), n=view.last_lap_left)
        )
    return "\n".join(lines)


def _turn_line(view: MajavajengiView, turn: int, ctx: RenderContext) -> str:
    t = ctx.t
    name = ctx.name(turn)
    if view.phase == "start":
        return t.gettext("Turn: {name} – draw, or take the top discard.").format(name=name)
    if view.phase == "holding":
        return t.gettext("Turn: {name} – holding a drawn card.").format(name=name)
    if view.phase == "draw2_next":
        return t.gettext("Turn: {name} – may draw once more (Draw 2).").format(name=name)
    return t.gettext("Turn: {name} – knock or end the turn.").format(name=name)


def private(view: MajavajengiSeatView, ctx: RenderContext) -> str:
    t = ctx.t
    seat = view.seat
    lines = []
    if view.options.memory_aid:
        lines.append(t.gettext("Your cards: {cards}").format(cards=_slots(view.known[seat], t)))
        others = [
            f"{ctx.name(s)}: {_slots(view.known[s], t)}"
            for s in range(view.players)
            if s != seat and any(view.known[s])
        ]
        if others:
            lines.append(t.gettext("You know of others: {list}").format(list="; ".join(others)))
    else:
        lines.append(t.gettext("Your cards: {cards}").format(cards=_slots((None,) * 4, t)))
    if view.held is not None:
        lines.append(t.gettext("In your hand: {card}").format(card=card_name(view.held, t)))
    return "\n".join(lines)


# --- events ------------------------------------------------------------------------------------------


def events(evs: Sequence[Event], ctx: RenderContext) -> list[str]:
    out: list[str] = []
    for e in evs:
        line = _event(e, ctx)
        if line:
            out.append(line)
    return out


def _event(e: Event, ctx: RenderContext) -> str | None:
    t = ctx.t
    p = e.p
    name = ctx.name(p["seat"]) if "seat" in p else ""
    match e.code:
        case "round_started":
            return t.gettext("Round {round}/{rounds} begins; {name} starts. Discard pile: {top}.").format(
                round=p["round"],
                rounds=p["rounds"],
                name=ctx.name(p["start_seat"]),
                top=card_name(p["discard_top"], t),
            )
        case "dealt_cards":
            cards = p["cards"]
            return t.gettext(
                "You look at your outer cards: 1 is {first} and 4 is {last}. Remember them!"
            ).format(first=card_name(cards[0], t), last=card_name(cards[1], t))
        case "took_discard":
            return t.gettext(
                "{name} took {card} from the discard pile into place {pos}; {removed} was discarded."
            ).format(
                name=name, card=card_name(p["card"], t), pos=p["pos"], removed=card_name(p["removed"], t)
            )
        case "drew":
            if p.get("in_draw2"):
                return t.gettext("{name} drew a card (Draw 2).").format(name=name)
            return t.gettext("{name} drew a card.").format(name=name)
        case "drew_card":
            return t.gettext("You drew {card}.").format(card=card_name(p["card"], t))
        case "replaced":
            return t.gettext("{name} put the drawn card in place {pos}; {removed} was discarded.").format(
                name=name, pos=p["pos"], removed=card_name(p["removed"], t)
            )
        case "replaced_card":
            return t.gettext("Your place {pos} now holds {card}.").format(
                pos=p["pos"], card=card_name(p["card"], t)
            )
        case "discarded":
            return t.gettext("{name} discarded {card}.").format(name=name, card=card_name(p["card"], t))
        case "peeked":
            return t.gettext("{name} peeked at their card {pos}.").format(name=name, pos=p["pos"])
        case "peeked_card":
            return t.gettext("🔍 Your card {pos} is {card}.").format(
                pos=p["pos"], card=card_name(p["card"], t)
            )
        case "swapped":
            return t.gettext("{name} swapped their card {pos} with {other}’s card {other_pos}.").format(
                name=name, pos=p["pos"], other=ctx.name(p["other_seat"]), other_pos=p["other_pos"]
            )
        case "draw2_used":
            return t.gettext("{name} used Draw 2.").format(name=name)
        case "draw2_stopped":
            return t.gettext("{name} stopped drawing.").format(name=name)
        case "reshuffled":
            return t.gettext(
                "The draw pile ran out: the discard pile was shuffled into a new draw pile ({n} cards)."
            ).format(n=t.format_number(p["draw_pile"]))
        case "knocked":
            if p.get("forced"):
                return t.gettext(
                    "{name} had to knock (turn limit). Everyone else gets one more turn."
                ).format(name=name)
            return t.gettext("✊ {name} knocked! Everyone else gets one more turn.").format(name=name)
        case "revealed":
            rows = [f"{ctx.name(s)}: {_slots(row, t)}" for s, row in enumerate(p["layouts"])]
            return t.gettext("Cards are turned face up:") + "\n" + "\n".join(rows)
        case "special_replaced":
            drawn = ", ".join(card_name(c, t) for c in p["drawn"])
            return t.gettext("{name}’s place {pos} held {removed}; drawn as replacement: {drawn}.").format(
                name=name, pos=p["pos"], removed=card_name(p["removed"], t), drawn=drawn
            )
        case "round_scored":
            scores = ", ".join(
                t.gettext("{name} {score} (total {total})").format(
                    name=ctx.name(s), score=p["scores"][s], total=p["totals"][s]
                )
                for s in range(len(p["scores"]))
            )
            return t.gettext("Round {round} scores: {scores}").format(round=p["round"], scores=scores)
        case "game_over":
            return t.gettext("The game is over.")
    return None


# --- refusals ----------------------------------------------------------------------------------------


def reason_text(code: str, params: dict[str, Any], ctx: RenderContext) -> str:
    """Why an action is refused (the service adds what is possible instead)."""
    t = ctx.t
    if code in REASONS:
        return t.gettext(REASONS[code])
    if code == "top_is":
        top = params.get("value")
        return t.gettext("The top discard is {card}.").format(
            card=card_name(top if isinstance(top, str) else f"N{top}", t)
        )
    if code == "wrong_card":
        needed = params.get("needed")
        if isinstance(needed, str) and needed in SPECIAL_EMOJI:
            return t.gettext("You need to hold {card} for that.").format(card=card_name(needed, t))
        return t.gettext("You need to hold a number card for that.")
    return t.gettext(NOT_ALLOWED)
