"""The animals as rule topics (issue #15): "mikä on piraija?", "mitä tukaani tekee?", "what is a
toucan?" are answered with the animal's colour group, its row and how many cards there are of it.
The keywords are every form of every animal name the parser knows, in Finnish and English."""

from __future__ import annotations

from chatbot.core.gameui import RuleTopic
from chatbot.core.i18n import N_
from chatbot.games.coloretto_amazonas.parser import EN_ANIMALS, FI_ANIMALS

_TEXTS = {
    "B": N_(
        "The blue animals live in the river: Amazon river dolphin, piranha, electric eel, arapaima and "
        "Amazonian manatee. There are five cards of each; a blue row is full with one of each kind, "
        "5 cards."
    ),
    "P": N_(
        "The purple animals are the birds: scarlet macaw, toucan, harpy eagle and hummingbird. There are "
        "five cards of each; a purple row is full with one of each kind, 4 cards."
    ),
    "R": N_(
        "The brown animals are the reptiles: anaconda, caiman and iguana. There are five cards of each; a "
        "brown row is full with one of each kind, 3 cards."
    ),
    "G": N_(
        "The green animals live in the forest: jaguar, sloth, tapir, capybara, poison dart frog and spider "
        "monkey. There are five cards of each; a green row is full with one of each kind, 6 cards."
    ),
}
_TITLES = {
    "B": N_("blue animals"),
    "P": N_("purple animals"),
    "R": N_("brown animals"),
    "G": N_("green animals"),
}


def _keywords(colour: str) -> tuple[str, ...]:
    words: list[str] = []
    for kind, names in FI_ANIMALS.items():
        if kind.startswith(colour):
            words.extend(form for forms in names for form in forms)
    for kind, english in EN_ANIMALS.items():
        if kind.startswith(colour):
            words.extend(english)
    return tuple(dict.fromkeys(words))


ANIMAL_TOPICS: tuple[RuleTopic, ...] = tuple(
    RuleTopic(f"coloretto_amazonas.animals.{colour}", text, _keywords(colour), _TITLES[colour])
    for colour, text in _TEXTS.items()
)
