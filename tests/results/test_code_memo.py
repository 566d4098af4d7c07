"""The history's memoised verification codes agree with the results page, edit after edit."""

import re

from companion_app.store import get_store

CODE = re.compile(r'data-code="([A-Z2-7]{5}-[A-Z2-7]{5})"')


def results_code(client, table_id: str) -> str:
    """The code the results page shows (computed afresh from the log)."""
    return CODE.search(client.get(f"/tables/{table_id}/results").get_data(as_text=True)).group(1)


def test_history_code_follows_undo_and_replay(app, client, finished):
    """Undo the last move: the game leaves the history; replay it: same code as the page."""
    before = results_code(client, finished)
    assert before in client.get("/history").get_data(as_text=True)
    with app.app_context():
        store = get_store()
        last = store.history(finished)[-1].move
        table = store.undo(finished, store.get(finished).version)
        assert before not in client.get("/history").get_data(as_text=True)
        store.apply_move(finished, last, table.version)
    after = results_code(client, finished)
    assert after == before  # the undone move and its undo are left out of the digest
    assert after in client.get("/history").get_data(as_text=True)


def test_history_code_matches_the_results_page_of_a_different_game(client, finished, app):
    """Two games with different logs show two different codes, each as its page shows it."""
    from tests.results.conftest import play_table

    other = play_table(app, names=["Ann", "Bob", "Cid", "Dee"])
    page = client.get("/history").get_data(as_text=True)
    codes = {results_code(client, finished), results_code(client, other)}
    assert len(codes) == 2 and all(code in page for code in codes)
