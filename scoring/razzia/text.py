"""How the rules name cards and checks inside English messages."""

from scoring.razzia import cards


def card_name(card: str) -> str:
    """A card kind as a message shows it ("horse racing", "police")."""
    return card.replace("_", " ") if card in cards.CARD_COUNTS else repr(card)


def money(value: int) -> str:
    """A check value as printed on the check (9,000)."""
    return f"{value:,}"
