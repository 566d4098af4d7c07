"""What a club form's refusal is: the rules' or the disk's, and the HTTP status each gets."""

from companion_app.store.faults import StorageFault
from scoring.league.roster import RosterError

BAD_REQUEST, UNAVAILABLE = 400, 503
#: Refusals a club form shows next to its field: a typed value the rules refuse, or a disk
#: that could not save (full, read-only, failing: nothing was changed).
FORM_REFUSALS = (RosterError, StorageFault)


def refusal_status(error: Exception) -> int:
    """503 when the disk refused the write (try again later), 400 for what was typed."""
    return UNAVAILABLE if isinstance(error, StorageFault) else BAD_REQUEST
