"""The box page's check on the bridge's side (bridge/webcheck.py): when it stops waiting."""

import pytest

from companion_app.bridge.check import CheckStopped
from companion_app.bridge.webcheck import ANSWER_S, PageBuilder


class Led:
    """An LED as the check names it."""

    def as_json(self):
        return {"index": 0, "segment": "police", "number": 1}


class UnansweredApp:
    """The app with a question on the page that nobody answers: every poll comes back empty;
    `stop_at` polls in, the bridge starts stopping (`stopping` turns true)."""

    def __init__(self, stop_at=None):
        self.polls = 0
        self.stop_at = stop_at
        self.stopping = False

    def request(self, method, path, body=None, timeout=None):
        """PUT puts the question; a GET is a long poll that ends with no answer."""
        if method == "GET":
            self.stopping = self.stopping or self.polls == self.stop_at
            self.polls += 1
        state = {"number": 1, "state": "running", "question": {"id": 7}, "answer": None}
        return 200, {**state, "etag": f"check:1:{self.polls}"}


def test_a_stopping_bridge_ends_an_unanswered_question_within_one_poll():
    """Stopping the bridge (Ctrl-C, a test's teardown) no longer waits out ANSWER_S (300 s) for
    an answer nobody gives: the check ends at the next poll."""
    app = UnansweredApp(stop_at=2)  # the bridge stops while the question waits
    builder = PageBuilder(app, 1, stopping=lambda: app.stopping)
    with pytest.raises(CheckStopped, match="the bridge is stopping"):
        builder.sees(Led(), "red")
    assert app.polls == 3


def test_an_unanswered_question_still_ends_after_answer_s():
    """Without a stop, the question waits ANSWER_S on the check's clock, then ends the check."""
    now = [0.0]

    def clock():
        now[0] += 60.0  # a minute a poll
        return now[0]

    app = UnansweredApp()
    builder = PageBuilder(app, 1, clock=clock)
    with pytest.raises(CheckStopped, match=f"no answer on the box page for {ANSWER_S:.0f} s"):
        builder.sees(Led(), "red")
    assert app.polls == ANSWER_S // 60 - 1
