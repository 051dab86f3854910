"""Majavajengi in chat: names, rule texts, renderers, buttons and the parser entry point.

Renderers take views only. The public table never shows a layout value (not even a publicly known
one, spec §7.2); a seat's private panel shows its held card and, with the memory aid on, every
value the seat knows. With the memory aid off a value reaches a player only in the message of the
event that showed it (spec §7.5 invariant 4).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from chatbot.core.i18n import N_, Translator
from chatbot.core.parsing import ParseContext, ParseResult
from chatbot.core.ports import GameUI, RenderContext, RuleTopic
from chatbot.games import majavajengi_parser
from engines.contract import Event

TOPICS = (
    RuleTopic('majavajengi.goal', N_('Score as few points as you can. At the end of every round the four cards in front of you are added up, and after the last round the lowest total wins.'),
              ('tavoite', 'voittaa', 'goal', 'win'), N_('goal')),
    RuleTopic('majavajengi.setup', N_('Everyone gets a row of four face-down cards. You see your two outer cards (positions 1 and 4) once; after that you can only look at your own cards with a Peek. The top card of the deck is turned face up to start the discard pile.'),
              ('alku', 'jako', 'reunimmaiset', 'setup', 'deal'), N_('setup')),
    RuleTopic('majavajengi.turn', N_('On your turn, either take the top card of the discard pile or draw a new card from the draw pile. Then play passes clockwise.'),
              ('vuoro', 'turn'), N_('the turn')),
    RuleTopic('majavajengi.action.take_discard', N_('You may take the top discard if it is a number card. It replaces one of your cards, which you may not look at first; the replaced card goes face up on the discard pile for everyone to see.'),
              ('poistopakka', 'ottaa', 'take', 'discard pile'), N_('taking the discard')),
    RuleTopic('majavajengi.action.draw', N_('When you draw from the draw pile, only you see the card. A number card can replace one of your cards or be discarded; a special card can be used or discarded.'),
              ('nostaa', 'nostopakka', 'draw'), N_('drawing')),
    RuleTopic('majavajengi.special', N_("A special card's power works only when you draw it from the draw pile on your turn. A drawn special card can never be placed in your row, and a special card on top of the discard pile cannot be taken."),
              ('erikoiskortti', 'special'), N_('special cards')),
    RuleTopic('majavajengi.special.swap', N_("Swap: you may exchange one of your cards with any one card of an opponent. Neither card is looked at, and the others only see which positions changed. You don't have to use it."),
              ('vaihto', 'swap'), N_('Swap')),
    RuleTopic('majavajengi.special.peek', N_('Peek: look at one of your own cards in secret. The others see which position you looked at, but not the value.'),
              ('kurkistus', 'kurkistaa', 'peek'), N_('Peek')),
    RuleTopic('majavajengi.special.draw2', N_('Draw 2: draw a new card and handle it like a normal draw. If you discard it, you may draw one more. Keeping a drawn card or using its power ends the Draw 2, but using another Draw 2 gives you two fresh draws.'),
              ('nosta 2', 'draw 2'), N_('Draw 2')),
    RuleTopic('majavajengi.reshuffle', N_('When the draw pile runs out, the whole discard pile is shuffled into a new draw pile, and its top card is turned up to start a new discard pile.'),
              ('pakka loppuu', 'sekoitus', 'reshuffle'), N_('reshuffling')),
    RuleTopic('majavajengi.knock', N_('When you think your cards are low enough, you may knock at the end of your own turn. Every other player then takes one more turn, and the round ends. Only one player can knock in a round.'),
              ('koputus', 'koputtaa', 'knock'), N_('knocking')),
    RuleTopic('majavajengi.last_lap', N_('The knocker plays no more turns this round, but the others can still swap cards with the knocker.'),
              ('viimeinen kierros', 'last lap'), N_('the last lap')),
    RuleTopic('majavajengi.round_end', N_('At the end of a round all cards are turned face up. If your row holds a special card, you draw until you get a number card, which takes its place. This is done in turn order, starting with the player who began the round.'),
              ('kierroksen loppu', 'round end'), N_('end of a round')),
    RuleTopic('majavajengi.scoring', N_('Your round score is the sum of the four numbers in your row, added to your total. Low is good: 0 is the best card and 9 the worst.'),
              ('pisteet', 'score'), N_('scoring')),
    RuleTopic('majavajengi.next_round', N_('The player who knocked starts the next round. If rotation was chosen for this game, the first turn instead moves one player clockwise each round.'),
              ('seuraava kierros', 'aloittaja', 'next round'), N_('the next round')),
    RuleTopic('majavajengi.game_end', N_('The game ends after the agreed number of rounds, six by default. The lowest total wins; tied players share the place.'),
              ('pelin loppu', 'kierrokset', 'game end'), N_('end of the game')),
    RuleTopic('majavajengi.memory', N_('Majavajengi is a memory game: the bot shows you a card only at the moment you may see it and does not remind you later. If the memory aid is on for this game, your private view always shows every card you know.'),
              ('muisti', 'muistiapu', 'memory aid'), N_('memory')),
)
REASONS = {
    'discard_top_special': N_('The top discard is a special card and cannot be taken. Draw from the draw pile instead.'),
    'special_cannot_be_placed': N_('A special card cannot go into your row. Use it or discard it.'),
    'own_seat': N_('In a Swap, the other card must belong to an opponent.'),
    'already_knocked': N_('Someone has already knocked this round.'),
    'knock_too_early': N_('In this game you may knock only after everyone has had a turn.'),
    'not_your_turn': N_("It is another player's turn."),
}


SPECIAL_EMOJI = {"SWAP": "🔄", "PEEK": "🔍", "DRAW2": "➕"}


def card_name(kind: str | None, t: Translator) -> str:
    """A card for people: "[7]", "[🔄 Vaihto]". Brackets mark every card value in a text, which
    keeps cards easy to spot for players and makes the no-leak scan of group texts exact."""
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


def cards_in(text: str) -> list[str]:
    """Every card mentioned in a rendered text (the bracketed names), for tests and checks."""
    return re.findall(r"\[([^\]]+)\]", text)


class MajavajengiUI(GameUI):
    game_id = "majavajengi"
    domain = "majavajengi"
    aliases = ("majavajengi", "majava", "majavat", "biberbande", "beaver gang", "beavers", "beaver")

    def title(self, t: Translator) -> str:
        return "🦫 " + t.gettext("Majavajengi")

    def rule_topics(self) -> Sequence[RuleTopic]:
        return TOPICS

    def option_words(self) -> dict[str, str]:
        return {"kierrokset": "rounds", "kierroksia": "rounds", "muistiapu": "memory_aid",
                "aloittaja": "next_round_start"}

    # --- the table ---------------------------------------------------------------------------
    def render_table(self, view: Any, ctx: RenderContext) -> str:
        t = ctx.t
        lines = [t.gettext("{game} – round {round}/{rounds}").format(
            game=self.title(t), round=view.round, rounds=view.rounds)]
        if view.phase != "over" and view.turn is not None:
            lines.append(self._turn_line(view, ctx))
        top = card_name(view.discard_top, t) if view.discard_top else t.gettext("empty")
        lines.append(t.gettext("Discard pile: {top} · draw pile: {n}").format(
            top=top, n=t.format_number(view.draw_pile)))
        for seat in range(view.players):
            marks = ""
            if view.knocker == seat:
                marks += " ✊"
            if view.turn == seat and view.phase != "over":
                marks += " ◀"
            row = view.layouts[seat] if view.revealed else (None,) * 4
            total = view.totals[seat]
            lines.append(t.gettext("{name}: {cards} (total {total}){marks}").format(
                name=ctx.name(seat), cards=_slots(row, t), total=t.format_number(total), marks=marks))
        if view.knocker is not None and view.phase != "over" and view.last_lap_left:
            lines.append(t.ngettext(
                "{name} knocked: {n} turn left in this round.",
                "{name} knocked: {n} turns left in this round.", view.last_lap_left,
            ).format(name=ctx.name(view.knocker), n=view.last_lap_left))
        return "\n".join(lines)

    def _turn_line(self, view: Any, ctx: RenderContext) -> str:
        t = ctx.t
        name = ctx.name(view.turn)
        if view.phase == "start":
            return t.gettext("Turn: {name} – draw, or take the top discard.").format(name=name)
        if view.phase == "holding":
            return t.gettext("Turn: {name} – holding a drawn card.").format(name=name)
        if view.phase == "draw2_next":
            return t.gettext("Turn: {name} – may draw once more (Draw 2).").format(name=name)
        return t.gettext("Turn: {name} – knock or end the turn.").format(name=name)

    def render_private(self, view: Any, ctx: RenderContext) -> str | None:
        t = ctx.t
        seat = view.seat
        lines = []
        if view.options.memory_aid:
            lines.append(t.gettext("Your cards: {cards}").format(cards=_slots(view.known[seat], t)))
            others = [
                f"{ctx.name(s)}: {_slots(view.known[s], t)}" for s in range(view.players)
                if s != seat and any(view.known[s])
            ]
            if others:
                lines.append(t.gettext("You know of others: {list}").format(list="; ".join(others)))
        else:
            lines.append(t.gettext("Your cards: {cards}").format(cards=_slots((None,) * 4, t)))
        if view.held is not None:
            lines.append(t.gettext("In your hand: {card}").format(card=card_name(view.held, t)))
        return "\n".join(lines)

    # --- events ------------------------------------------------------------------------------
    def render_events(self, events: Sequence[Event], ctx: RenderContext) -> list[str]:
        out: list[str] = []
        for e in events:
            line = self._event(e, ctx)
            if line:
                out.append(line)
        return out

    def _event(self, e: Event, ctx: RenderContext) -> str | None:
        t = ctx.t
        p = e.p
        name = ctx.name(p["seat"]) if "seat" in p else ""
        match e.code:
            case "round_started":
                return t.gettext("Round {round}/{rounds} begins; {name} starts. Discard pile: {top}.").format(
                    round=p["round"], rounds=p["rounds"], name=ctx.name(p["start_seat"]),
                    top=card_name(p["discard_top"], t))
            case "dealt_cards":
                cards = p["cards"]
                return t.gettext("You look at your outer cards: 1 is {first} and 4 is {last}. Remember them!").format(
                    first=card_name(cards[0], t), last=card_name(cards[1], t))
            case "took_discard":
                return t.gettext("{name} took {card} from the discard pile into place {pos}; {removed} was discarded.").format(
                    name=name, card=card_name(p["card"], t), pos=p["pos"], removed=card_name(p["removed"], t))
            case "drew":
                if p.get("in_draw2"):
                    return t.gettext("{name} drew a card (Draw 2).").format(name=name)
                return t.gettext("{name} drew a card.").format(name=name)
            case "drew_card":
                return t.gettext("You drew {card}.").format(card=card_name(p["card"], t))
            case "replaced":
                return t.gettext("{name} put the drawn card in place {pos}; {removed} was discarded.").format(
                    name=name, pos=p["pos"], removed=card_name(p["removed"], t))
            case "replaced_card":
                return t.gettext("Your place {pos} now holds {card}.").format(pos=p["pos"], card=card_name(p["card"], t))
            case "discarded":
                return t.gettext("{name} discarded {card}.").format(name=name, card=card_name(p["card"], t))
            case "peeked":
                return t.gettext("{name} peeked at their card {pos}.").format(name=name, pos=p["pos"])
            case "peeked_card":
                return t.gettext("🔍 Your card {pos} is {card}.").format(pos=p["pos"], card=card_name(p["card"], t))
            case "swapped":
                return t.gettext("{name} swapped their card {pos} with {other}’s card {other_pos}.").format(
                    name=name, pos=p["pos"], other=ctx.name(p["other_seat"]), other_pos=p["other_pos"])
            case "draw2_used":
                return t.gettext("{name} used Draw 2.").format(name=name)
            case "draw2_stopped":
                return t.gettext("{name} stopped drawing.").format(name=name)
            case "reshuffled":
                return t.gettext("The draw pile ran out: the discard pile was shuffled into a new draw pile ({n} cards).").format(
                    n=t.format_number(p["draw_pile"]))
            case "knocked":
                if p.get("forced"):
                    return t.gettext("{name} had to knock (turn limit). Everyone else gets one more turn.").format(name=name)
                return t.gettext("✊ {name} knocked! Everyone else gets one more turn.").format(name=name)
            case "revealed":
                rows = [f"{ctx.name(s)}: {_slots(row, t)}" for s, row in enumerate(p["layouts"])]
                return t.gettext("Cards are turned face up:") + "\n" + "\n".join(rows)
            case "special_replaced":
                drawn = ", ".join(card_name(c, t) for c in p["drawn"])
                return t.gettext("{name}’s place {pos} held {removed}; drawn as replacement: {drawn}.").format(
                    name=name, pos=p["pos"], removed=card_name(p["removed"], t), drawn=drawn)
            case "round_scored":
                scores = ", ".join(
                    t.gettext("{name} {score} (total {total})").format(
                        name=ctx.name(s), score=p["scores"][s], total=p["totals"][s])
                    for s in range(len(p["scores"])))
                return t.gettext("Round {round} scores: {scores}").format(round=p["round"], scores=scores)
            case "game_over":
                return t.gettext("The game is over.")
        return None

    # --- actions -------------------------------------------------------------------------------
    def action_label(self, notation: str, view: Any, ctx: RenderContext) -> str:
        t = ctx.t
        parts = notation.split()
        match parts:
            case ["draw"]:
                return t.gettext("Draw")
            case ["take", pos]:
                return t.gettext("Take discard → {pos}").format(pos=pos)
            case ["replace", pos]:
                return t.gettext("Put in place {pos}").format(pos=pos)
            case ["discard"]:
                return t.gettext("Discard")
            case ["peek", pos]:
                return t.gettext("Peek at {pos}").format(pos=pos)
            case ["swap", own, other, pos]:
                return t.gettext("My {own} ↔ {name} {pos}").format(
                    own=own, name=ctx.name(int(other.removeprefix("seat"))), pos=pos)
            case ["draw2"]:
                return t.gettext("Use Draw 2")
            case ["next"]:
                return t.gettext("Draw again")
            case ["stop"]:
                return t.gettext("Stop drawing")
            case ["knock"]:
                return t.gettext("Knock")
            case ["end"]:
                return t.gettext("End turn")
        return notation

    def button_rows(self, legal: Sequence[str], view: Any, ctx: RenderContext) -> list[list[tuple[str, str]]]:
        rows: list[list[tuple[str, str]]] = []
        groups: dict[str, list[str]] = {}
        for n in legal:
            key = n.split()[0]
            if key == "swap":
                key = "swap " + n.split()[2]
            groups.setdefault(key, []).append(n)
        for items in groups.values():
            row = [(self.action_label(n, view, ctx), n) for n in items]
            width = 4
            for i in range(0, len(row), width):
                rows.append(row[i:i + width])
        # single-button groups side by side
        merged: list[list[tuple[str, str]]] = []
        for row in rows:
            if merged and len(row) == 1 and len(merged[-1]) == 1:
                merged[-1].extend(row)
            else:
                merged.append(row)
        return merged

    def group_actions(self, legal: Sequence[str], public_view: Any) -> tuple[str, ...]:
        # before drawing and at the end of the turn every legal action follows from public facts;
        # while a drawn card is held, the possible actions would reveal what it is
        if public_view.phase in {"start", "turn_end"}:
            return tuple(legal)
        return ()

    def idle_action(self, legal: Sequence[str], view: Any) -> str | None:
        # spec M28: an unanswered decision at the end of the turn is "end", never a knock
        return "end" if "end" in legal else None

    def parse(self, text: str, ctx: ParseContext) -> ParseResult:
        view = ctx.view
        extra = {
            "phase": view.phase,
            "discard_top": view.discard_top,
            "held": getattr(view, "held", None),
        }
        return majavajengi_parser.parse(text, ParseContext(
            lang=ctx.lang, seat=ctx.seat, legal=ctx.legal, view=view, seat_names=ctx.seat_names,
            extra={**ctx.extra, **extra}))

    def reason_text(self, code: str, params: dict[str, Any], ctx: RenderContext) -> str:
        t = ctx.t
        if code in REASONS:
            return t.gettext(REASONS[code])
        if code == "top_is":
            top = params.get("value")
            return t.gettext("The top discard is {card}.").format(
                card=card_name(top if isinstance(top, str) else f"N{top}", t))
        if code == "wrong_card":
            needed = params.get("needed")
            if isinstance(needed, str) and needed in SPECIAL_EMOJI:
                return t.gettext("You need to hold {card} for that.").format(card=card_name(needed, t))
            return t.gettext("You need to hold a number card for that.")
        if code == "wrong_phase":
            return t.gettext("That is not possible at this point of the turn.")
        if code == "bad_position":
            return t.gettext("Positions are numbered 1 to 4.")
        if code == "game_over":
            return t.gettext("The game is already over.")
        return t.gettext("That move is not allowed now.")


UI = MajavajengiUI()
