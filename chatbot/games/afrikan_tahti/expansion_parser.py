"""Afrikan Tähti's Retkikunnat commands: free text -> the expansion's action the player meant (hand
cards, trades, duels, the questions of the expansion's prompts). Split from :mod:`.parser`, whose
:class:`~.parser.AfrikanTahtiParser` asks :class:`ExpansionParser` first in a Retkikunnat game; the
refusals and reading order are described there.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from chatbot.core.nlp import NEG, Item, Lemmatizer, Lexicon, Reading
from chatbot.core.parsing import Ambiguous, NotLegal, ParseContext, Parsed, ParseResult
from chatbot.games.afrikan_tahti.lexicon import (
    X_ACCEPT,
    X_ASK,
    X_BUYD,
    X_CHOOSE,
    X_DECLINE,
    X_DISCARD,
    X_DONE,
    X_DUEL,
    X_END,
    X_EXCHANGE,
    X_FLIP,
    X_GEMS,
    X_HOLD,
    X_HORSESHOE,
    X_MINUS,
    X_OFFER,
    X_PASS,
    X_PEEK,
    X_PLAY,
    X_PLUS,
    X_REROLL,
    X_ROLL,
    X_SELL,
    X_STAR,
    X_SWAP,
    X_UNHOLD,
    X_USE,
    expansion_lexicon_words,
)
from engines.afrikan_tahti import ENGINE
from engines.afrikan_tahti.model import (
    Accept,
    Adjust,
    Ask,
    BuyDiscard,
    Character,
    Choose,
    Decline,
    Discard,
    Duel,
    EndPhase,
    Exchange,
    Flip,
    FlipRoll,
    GemRoll,
    Hold,
    Offer,
    Pass,
    Peek,
    Play,
    Reroll,
    RerollDone,
    RerollMove,
    Roll,
    Seaplane,
    Sell,
    SwapStack,
    Unhold,
    Use,
    View,
    roll_only_when_broke,
    seat_of,
)
from engines.afrikan_tahti.retkikunnat.model import XView
from engines.codec import BadNotation

# --------------------------------------------------------------------------------------------------
# 3. Retkikunnat (expansion) commands: cards, characters, answers, duels and offers
# --------------------------------------------------------------------------------------------------


@dataclass(slots=True)
class ExpansionReading(Reading):
    """Besides the concepts: the cards, places and seats named, and the bare numbers (dice, sums,
    option numbers). A lone negation ("en") counts as a denied :data:`NEG`."""

    cards: list[str] = field(default_factory=list)
    places: list[str] = field(default_factory=list)
    seats: list[int] = field(default_factory=list)
    numbers: list[int] = field(default_factory=list)

    def concepts_of(self, item: Item) -> Iterable[str]:
        return {c for c in item.concepts if ":" not in c} - {NEG}

    def take(self, items: Sequence[Item], index: int) -> None:
        item = items[index]
        concepts = set(item.concepts)
        self.cards.extend(c[5:] for c in sorted(concepts) if c.startswith("card:"))
        self.places.extend(c[6:] for c in sorted(concepts) if c.startswith("place:"))
        if item.has(NEG) and not set(self.concepts_of(item)):
            self.denied.add(NEG)
        self.seats.extend(item.seats)
        if item.numbers and not concepts:
            self.numbers.extend(n.value for n in item.numbers[:1] if n.value is not None)


#: the verb of each card or turn action of the expansion
_HEADS: dict[type, str] = {
    Sell: X_SELL,
    Use: X_USE,
    Discard: X_DISCARD,
    Hold: X_HOLD,
    Unhold: X_UNHOLD,
    Peek: X_PEEK,
    Exchange: X_EXCHANGE,
    BuyDiscard: X_BUYD,
    SwapStack: X_SWAP,
    GemRoll: X_GEMS,
}


def _readable(notation: str) -> Any | None:
    """The action ``notation`` names, or None when the engine reads none (a card verb fits only the
    cards it is for: "play rifle" is nothing, a rifle is used, never played)."""
    try:
        return ENGINE.parse_notation(notation)
    except BadNotation:
        return None


def x_prompt_of(view: View) -> object | None:
    x: XView | None = view.x
    return x.prompt if x is not None else None


def _in_private(ctx: ParseContext[View]) -> bool:
    """Whether the message came in the private chat. It is no fact of the game, so no view holds
    it."""
    return ctx.private


class ExpansionParser:
    """Matches an expansion command against the legal actions; ``None`` when it says nothing the
    expansion knows, so the base phases' parser gets its turn."""

    def __init__(self, lemmatizer: Lemmatizer | None = None) -> None:
        self.lexicon = Lexicon(expansion_lexicon_words(), lemmatizer)

    def read(self, text: str, lang: str, names: Sequence[str]) -> ExpansionReading:
        return ExpansionReading.of(self.lexicon.scan(text.replace("-", " "), lang, names))

    def parse(self, text: str, ctx: ParseContext[View]) -> ParseResult | None:
        r = self.read(text, ctx.lang, ctx.seat_names)
        legal = list(ctx.legal)
        if (r.has(X_ASK) or X_ASK in r.denied) and ctx.view.x is not None and ctx.seat is not None:
            # the window setting (windows.py): "älä kysy minulta", "kysy minulta", "kysy vain
            # Sabotaasista"; it is private, so it is taken from the private chat only
            mode = "never" if X_ASK in r.denied else (r.cards[0] if r.cards else "all")
            if not _in_private(ctx):
                return NotLegal("ask_in_private")
            return Parsed((Ask(mode),))
        if not legal:
            return None
        if x_prompt_of(ctx.view) is None and r.has(X_FLIP) and not r.has(X_PEEK, X_SWAP, X_SELL, X_USE):
            early = _flip_before_phase3(r, ctx)
            if early is not None:
                return early
        fits = [a for a in legal if self._fits(a, r, ctx)]
        offer_words = r.has(X_OFFER) or (r.has(X_SELL) and bool(r.seats))  # "myyn Ratsun Matille"
        if not fits and offer_words and any(isinstance(a, Offer) for a in legal):
            return self._offer(r, ctx)
        if not fits and (r.denied & {X_PLAY, X_REROLL, X_ACCEPT, NEG} or r.has(X_PASS)):
            fits = [a for a in legal if isinstance(a, Pass | Decline | RerollDone)][:1]
        rerolls = [a.card for a in legal if isinstance(a, Reroll)]
        if not fits and rerolls and r.numbers and (r.has(X_REROLL) or r.has(X_ROLL)):
            # "reroll 2 and 5" with a card that rerolls one die: the engine says it rerolls fewer
            card = next((c for c in r.cards if c in rerolls), rerolls[0])
            return Parsed((Reroll(card, tuple(sorted(set(r.numbers)))),))
        if not fits and x_prompt_of(ctx.view) is None:
            # the words name an action that is not possible now: hand it to the engine, whose
            # refusal gives the reason and the way forward ("käännä kiekko" with an incomplete
            # expedition on the discovery layer, "myy Ratsu" without a Horse); with a question on
            # the table the base parser says "wrong_prompt" itself
            fits = [a for a in self._named(r) if self._fits(a, r, ctx)][:1]
        if not fits:
            return None
        if any(isinstance(a, Play) for a in fits) and not _in_private(ctx):
            return NotLegal("play_in_private")
        if len(fits) == 1:
            return Parsed((fits[0],))
        return Ambiguous(tuple(fits[:8]), "card")

    @staticmethod
    def _named(r: ExpansionReading) -> list[Any]:
        """Actions the words may name whether or not they are legal now (only those that need no
        other choice): the turn's own verbs, and a card verb with the card named."""
        out: list[Any] = [FlipRoll(), Flip(), Peek(), GemRoll(), BuyDiscard(), Exchange()]
        for seat in r.seats[:1]:  # "ryöstän Liisalta Tähden" away from Liisa: the engine says why
            if r.has(X_DUEL) and r.has(X_STAR):
                out.append(Duel(seat, "star"))
            elif r.has(X_DUEL) and r.has(X_HORSESHOE):
                out.append(Duel(seat, "horseshoe"))
        for card in r.cards[:1]:
            # read from the words, so that a verb names only the cards it takes
            out.extend(
                _readable(f"{verb} {card}") for verb in ("sell", "use", "discard", "hold", "unhold", "play")
            )
        return [a for a in out if a is not None]

    def _fits(self, action: Any, r: ExpansionReading, ctx: ParseContext[View]) -> bool:
        cards, places, seats = r.cards, r.places, r.seats
        x: XView | None = ctx.view.x
        match action:
            case Character(id=ident):
                return ident in cards
            case Seaplane(to=port):
                return "seaplane" in cards and (port in places or not places)
            case GemRoll():
                return r.has(X_GEMS)
            case RerollMove():
                if r.has(X_USE) and cards == ["compass"]:  # "käytä kompassia"
                    return True
                return r.has(X_REROLL) and not r.numbers and ("compass" in cards or not cards)
            case Adjust(delta=delta):
                return r.has(X_PLUS) if delta > 0 else r.has(X_MINUS)
            case Reroll(card=card, dice=dice):
                rolled = r.has(X_REROLL) or r.has(X_ROLL)
                return rolled and tuple(sorted(set(r.numbers))) == dice and (not cards or card in cards)
            case RerollDone():
                return r.has(X_DONE)
            case Use(card=card, arg=arg):
                # "käytä Ratsua", "Ratsulla Ocombaan", or the card's name alone ("Ratsulla")
                used = r.has(X_USE) or (bool(places) and not r.said - {X_CHOOSE}) or not (r.said or r.denied)
                return used and card in cards and (arg is None or not places or arg in places)
            case Sell(card=card) | Discard(card=card) | Hold(card=card) | Unhold(card=card):
                if isinstance(action, Sell) and seats:
                    return False  # "myyn Ratsun Matille": a trade offer
                if isinstance(action, Hold) and r.denied & {
                    X_UNHOLD,
                    X_USE,
                }:  # "älä käytä X:ää automaattisesti"
                    return card in cards
                if isinstance(action, Hold) and r.has(X_UNHOLD):
                    return False
                if isinstance(action, Unhold) and r.denied & {X_UNHOLD, X_USE}:
                    return False
                return r.has(_HEADS[type(action)]) and card in cards
            case Play(card=card, arg=arg):
                if card not in cards or not (r.has(X_PLAY) or (arg is None and not r.said)):
                    return False
                if arg is not None and ":" in arg:
                    s, _, target = arg.partition(":")
                    seat = seat_of(s)
                    return (not seats or seat in seats) and (target in cards or len(cards) == 1)
                return arg is None or not places or arg in places
            case Pass():
                return r.has(X_PASS)
            case Accept():
                return r.has(X_ACCEPT) and not r.denied & {X_ACCEPT}
            case Decline():
                return r.has(X_DECLINE) or bool(r.denied & {X_ACCEPT})
            case Duel(seat=seat, target=target):
                if not r.has(X_DUEL) or (seats and seat not in seats):
                    return False
                kind, _, arg_ = target.partition(":")
                if r.has(X_STAR):
                    return target == "star"
                if r.has(X_HORSESHOE):
                    return target == "horseshoe"
                if cards:
                    return kind == "card" and arg_ in cards
                if r.numbers:
                    return kind == "money" and int(arg_) in r.numbers
                return True
            case SwapStack(place=pid):
                return r.has(X_SWAP) and pid in places
            case Peek() | Exchange() | BuyDiscard():
                return r.has(_HEADS[type(action)])
            case Choose(option=option):
                seat = seat_of(option)
                if seat is not None:
                    return seat in seats
                if option in places or option in cards:
                    return True
                options = [a.option for a in ctx.legal if isinstance(a, Choose)]
                return (
                    len(r.numbers) == 1
                    and 1 <= r.numbers[0] <= len(options)
                    and options[r.numbers[0] - 1] == option
                )
            case Roll():
                prompt = x.prompt if x is not None else None
                return prompt is not None and prompt.kind in ("danger", "duel") and r.has(X_ROLL)
            case Flip() | FlipRoll():
                return (
                    ctx.view.phase == "phase3"
                    and r.has(X_FLIP)
                    and not r.has(X_PEEK, X_SWAP)
                    and (isinstance(action, FlipRoll) == r.has(X_ROLL))
                )
            case EndPhase():
                return ctx.view.phase in ("phase2", "phase3") and r.has(X_END, X_DONE)
        return False

    def _offer(self, r: ExpansionReading, ctx: ParseContext[View]) -> ParseResult:
        others = [s for s in dict.fromkeys(r.seats) if s != ctx.seat]
        x: XView | None = ctx.view.x
        if len(others) != 1 or ctx.seat is None or x is None:
            return Ambiguous(tuple(a for a in ctx.legal if isinstance(a, Offer))[:6], "player")
        other = others[0]
        mine = {i.split("#")[0] for i in x.players[ctx.seat].cards}
        theirs = {i.split("#")[0] for i in x.players[other].cards}
        give = [c for c in r.cards if c in mine]
        get = [c for c in r.cards if c in theirs and c not in give]
        sums = [str(n) for n in r.numbers if n >= 100]
        if sums:
            (get if give and not get else give).append(sums[0])
        # an offer of nothing for nothing is still what was said: the engine refuses it
        return Parsed((Offer(other, tuple(give), tuple(get)),))


def _flip_before_phase3(r: ExpansionReading, ctx: ParseContext[View]) -> ParseResult | None:
    """A flip said before Phase 3, where Retkikunnat flips (spec §5.2, §5.4): in Phase 2 it ends the
    phase and flips at once, when the place allows a flip (issue #28: "käännä kiekko" typed there
    was not understood); otherwise the answer says why not. Before the move or its end (with no
    destination named) the answer says when a flip comes. None: not a flip said early."""
    view, seat = ctx.view, ctx.seat
    x: XView | None = view.x
    if x is None or seat is None or view.turn != seat:
        return None
    if view.phase in ("declare", "move") and not r.places and not r.numbers:
        return NotLegal("flip_in_phase3")
    if view.phase != "phase2":
        return None
    rolled = r.has(X_ROLL)
    if x.flip_price is None:
        here = view.pawns[seat].node
        on_place = any(pid == here for pid, _tid in view.face_down)
        return NotLegal("expedition_incomplete" if on_place else "no_token")
    cash = view.pawns[seat].cash
    may_roll = cash < x.flip_price or not roll_only_when_broke(view.options)
    if rolled and not may_roll:
        return NotLegal("can_afford_flip", (("price", x.flip_price),))
    # broke: the roll is the only way to flip here, and it is what "käännä" can mean
    roll = rolled or cash < x.flip_price
    return Parsed((EndPhase(), FlipRoll() if roll else Flip()))
