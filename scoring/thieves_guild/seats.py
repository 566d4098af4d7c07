"""Who the second roll robs, by player count (RULES.md §3 "Seat rules by player count").

Players sit in list order and play passes to the left, so the left neighbour is the next
seat in the list and the right neighbour the previous one.
"""

from scoring.errors import N_, IllegalMove

LEFT, RIGHT = "left", "right"
DIRECTIONS = (LEFT, RIGHT)
#: From this many players the second roll is a distance counted left or right (base rules).
DISTANCE_FROM = 5
FIVE = 5
FOUR = 4
THREE = 3
#: 4 players: 1-2 robs the left neighbour, 3-4 the player opposite, 5-6 the right neighbour.
FOUR_PLAYER_STEPS = {1: 1, 2: 1, 3: 2, 4: 2, 5: -1, 6: -1}
DIE = range(1, 7)
#: A five-player table rolls a six again (seed: "Varianta hry pro 5 hráčů").
REROLLED_WITH_FIVE = 6


def needs_direction(players: int) -> bool:
    """True where the robber chooses left or right (5-9 players); 3 and 4 have fixed seats."""
    return players >= DISTANCE_FROM


#: Refusals of a roll outside the die, by which roll it is.
LOOT_ROLL = N_("The loot roll (the first roll) is a die roll from 1 to 6, not {roll}.")
TARGET_ROLL = N_("The target roll (the second roll) is a die roll from 1 to 6, not {roll}.")


def check_roll(roll: object, message: str = LOOT_ROLL) -> int:
    """A die roll 1-6, or IllegalMove with `message` (which roll it is)."""
    if type(roll) is not int or roll not in DIE:
        raise IllegalMove(message, roll=repr(roll)[:12])
    return roll


def check_target(players: int, roll: object) -> int:
    """A target roll legal at this player count (a six is rolled again with five players)."""
    roll = check_roll(roll, TARGET_ROLL)
    if players == FIVE and roll == REROLLED_WITH_FIVE:
        raise IllegalMove(
            N_("With five players a six is rolled again: roll the die again and enter that roll.")
        )
    return roll


def check_direction(players: int, direction: object) -> str:
    """Left or right where the player count lets the robber choose; refused at 3 and 4."""
    if not needs_direction(players):
        raise IllegalMove(
            N_(
                "With {count} players the seat rules decide who is robbed; "
                "there is no left or right to choose."
            ),
            count=players,
        )
    if direction not in DIRECTIONS:
        raise IllegalMove(N_("Choose the direction: left or right."))
    return direction


def victim(players: int, robber: int, roll: int, direction: str | None) -> int | None:
    """The seat the target roll robs, or None when the count lands on the robber."""
    if players == THREE:
        step = 1 if roll % 2 else -1  # odd robs the left neighbour, even the right
    elif players == FOUR:
        step = FOUR_PLAYER_STEPS[roll]
    else:
        if roll % players == 0:
            return None
        step = roll if direction == LEFT else -roll
    return (robber + step) % players


def candidates(players: int, robber: int, roll: int) -> dict[str, int | None]:
    """The victim of each direction the robber may choose (one key, None, at 3 and 4)."""
    if not needs_direction(players):
        return {"": victim(players, robber, roll, None)}
    return {direction: victim(players, robber, roll, direction) for direction in DIRECTIONS}
