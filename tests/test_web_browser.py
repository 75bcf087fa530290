"""The web table in a real browser: Debian's Chromium driven by Playwright (launched by its
``executable_path``; Playwright's own browser download is not used). A person plays a whole
game of each of the five games by clicking against a bot, two browser contexts play one game
as two people each seeing only their own hand, undo, a game resumed after a server restart,
and a replay. Each game's table is photographed on the way: into a temporary folder, or with
``REGALIA_WEB_SHOTS=docs/web`` into the pictures of the "Play in the browser" page (how they
are made anew)."""

from __future__ import annotations

import os
import random
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason='the web table needs the web extra (pip install "regalia[web]")')
sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need Playwright")

from tests.web_helpers import KEY, Server, start, token  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
SHOTS_INTO = os.environ.get("REGALIA_WEB_SHOTS")
pytestmark = [
    pytest.mark.skipif(CHROMIUM is None, reason="no chromium: apt-get install -y chromium (.ci/run installs it)"),
    pytest.mark.xdist_group("browser"),
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    s = Server(tmp_path / "web.sqlite3", pace=0.05).start()
    yield s
    s.stop()


#: Reports every Content-Security-Policy violation on the console (where ``watch`` hears it).
REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (e) => {
  console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || "inline"}`);
});
"""
#: What each context has seen go wrong: requests to another origin, CSP violations.
PROBLEMS: dict[int, list[str]] = {}
#: The origins each context may ask (its server's; a restarted server's too).
ORIGINS: dict[int, set[str]] = {}


def watch(context: Any, origin: str) -> None:
    """Notes each request ``context`` makes to another origin than ``origin`` (or those added
    to ``ORIGINS`` later), and each Content-Security-Policy violation its pages report."""
    problems = PROBLEMS.setdefault(id(context), [])
    origins = ORIGINS.setdefault(id(context), {origin})
    context.add_init_script(REPORT_VIOLATIONS)

    def request(r: Any) -> None:
        if not r.url.startswith(("data:", "about:")) and r.url.split("/", 3)[:3] not in [
            o.split("/", 3)[:3] for o in origins
        ]:
            problems.append(f"a request to another origin: {r.url}")

    def console(message: Any) -> None:
        if "Content Security Policy" in message.text or "CSP violation" in message.text:
            problems.append(message.text)

    context.on("request", request)
    context.on("page", lambda page: page.on("console", console))


def page_of(browser: Any, server: Server, path: str, key: bool = True) -> Any:
    """A page at ``path`` in a fresh context (holding the lobby's key unless ``key`` is
    False), watched for requests to another origin and CSP violations."""
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    context.set_default_timeout(90_000)  # a loaded CI machine: bots and two browsers share 2 cores
    watch(context, server.url)
    page = context.new_page()
    if key:
        page.goto(f"{server.url}/?key={KEY}")
    page.goto(f"{server.url}{path}")
    return page


def until(page: Any, expression: str, seconds: float = 90) -> None:
    """Waits until ``expression`` is true in ``page``, polled from here: Playwright's own
    ``wait_for_function`` evaluates its predicate with ``eval``, which the page's CSP forbids."""
    deadline = time.monotonic() + seconds
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise AssertionError(f"still not true after {seconds} s: {expression}")
        time.sleep(0.03)


def finish(page: Any) -> None:
    """Closes the page's context, having checked that it asked nothing of another origin and
    broke no rule of the Content-Security-Policy."""
    problems = PROBLEMS.pop(id(page.context), [])
    ORIGINS.pop(id(page.context), None)
    page.context.close()
    assert problems == []


def click_to_the_end(page: Any, rnd: random.Random, limit: int = 3000) -> None:
    """Clicks a random offered move whenever it is the person's turn, until the game is over."""
    for _ in range(limit):
        until(
            page,
            "(document.body.dataset.turn === 'yes' && document.body.dataset.busy !== 'yes')"
            " || document.body.dataset.over === 'true'",
        )
        if page.evaluate("document.body.dataset.over") == "true":
            return
        buttons = page.locator("#moves button")
        version = page.evaluate("document.body.dataset.version")
        buttons.nth(rnd.randrange(buttons.count())).click()
        until(page, f"document.body.dataset.version !== '{version}'")
    raise AssertionError("the game did not end")


GAMES = [("duo-regna", {}), ("duo", {"rounds": 1}), ("duell-der-drachen", {}), ("regine", {}), ("regnum", {})]


@pytest.mark.parametrize("game, options", GAMES, ids=[g for g, _ in GAMES])
def test_a_person_clicks_a_whole_game_against_a_bot(
    browser: Any, server: Server, game: str, options: Any, tmp_path: Path
) -> None:
    with server.client() as c:
        (tok,) = start(c, game, ["human", "random"], seed=11, **options)
    page = page_of(browser, server, f"/t/{tok}")
    page.wait_for_selector("#picture svg")
    until(page, "document.body.dataset.turn === 'yes'")
    shots = Path(SHOTS_INTO) if SHOTS_INTO else tmp_path
    shots.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shots / f"{game}.png"))
    assert (shots / f"{game}.png").stat().st_size > 0
    assert page.locator("#scores").is_hidden()
    click_to_the_end(page, random.Random(game))
    assert page.locator("#ending").inner_text().strip()
    # The final scores from the outcome: a row a seat, the winners marked, as the ending says.
    with server.client() as c:
        outcome = c.get(f"/api/t/{tok}").json()["outcome"]
    rows = page.locator("#scores tr")
    assert page.locator("#scores").is_visible() and rows.count() == 2
    for seat, name in enumerate(["you", "the opponent"]):
        won = seat in outcome["winners"]
        cells = [rows.nth(seat).locator("td").nth(i).inner_text() for i in range(3)]
        assert cells == [name, str(outcome["scores"][seat]), "wins" if won else ""]
    ending = page.locator("#ending").inner_text()
    assert "Final scores" in ending and ("It is a draw." in ending) == (not outcome["winners"])
    assert page.locator("#log li").count() > 0
    finish(page)


def test_the_lobby_starts_a_game_and_keys_play_it(browser: Any, server: Server) -> None:
    page = page_of(browser, server, "/")
    page.select_option("#game", "duo-regna")
    page.select_option("select[name=seat1]", "random")
    page.fill("#seed", "5")
    page.click("#start")
    page.wait_for_selector("#picture svg")
    until(page, "document.body.dataset.turn === 'yes'")
    version = page.evaluate("document.body.dataset.version")
    page.keyboard.press("1")  # the moves keep their numbers
    until(page, f"document.body.dataset.version !== '{version}'")
    until(page, "document.body.dataset.turn === 'yes'")
    page.keyboard.press("u")  # the opponent has moved since: refused, with the reason
    until(page, "document.getElementById('message').textContent.includes('stands')")
    finish(page)


def test_two_people_at_two_browsers_each_see_their_own_hand(browser: Any, server: Server) -> None:
    with server.client() as c:
        a, b = start(c, "duo", ["human", "human"], seed=4, rounds=1)
    one, two = page_of(browser, server, f"/t/{a}"), page_of(browser, server, f"/t/{b}")
    until(one, "document.body.dataset.turn === 'yes'")
    assert two.evaluate("document.body.dataset.turn") == "no"
    assert one.locator("#picture").inner_html() != two.locator("#picture").inner_html()
    assert b not in one.content() and a not in two.content()
    version = one.evaluate("document.body.dataset.version")
    one.locator("#moves button").first.click()
    until(two, f"document.body.dataset.version !== '{version}'")  # live, without a reload
    finish(one)
    finish(two)


def test_people_at_one_screen_hand_it_over(browser: Any, server: Server) -> None:
    with server.client() as c:
        body = {"game": "duo", "seats": ["human", "human"], "seed": 4, "options": {"rounds": 1}, "hot_seat": True}
        tok = token(c.post("/api/tables", json=body).json()["links"][0]["url"])
    page = page_of(browser, server, f"/t/{tok}")
    until(page, "document.body.dataset.handover === '0'")
    assert page.locator("#picture svg").count() == 0 and page.locator("#board").is_hidden()
    page.click("#take")  # "I am seat 0"
    until(page, "document.body.dataset.turn === 'yes'")
    assert page.locator("#picture svg").count() == 1 and "Seat 0" in page.locator("#whose").inner_text()
    for _ in range(50):  # seat 0 plays until the screen is to go to seat 1
        version = page.evaluate("document.body.dataset.version")
        page.locator("#moves button").first.click()
        until(page, f"document.body.dataset.version !== '{version}'")
        if page.evaluate("document.body.dataset.handover") == "1":
            break
    assert page.locator("#picture svg").count() == 0 and page.locator("#log li").count() == 0
    page.click("#take")
    until(page, "document.body.dataset.turn === 'yes'")
    assert "Seat 1" in page.locator("#whose").inner_text()
    finish(page)


def test_undo_in_the_browser(browser: Any, server: Server) -> None:
    with server.client() as c:
        (tok,) = start(c, "regnum", ["human", "random"], seed=2)
    page = page_of(browser, server, f"/t/{tok}")
    until(page, "document.body.dataset.turn === 'yes'")
    assert page.locator("#undo").is_hidden()  # nothing to take back before the first move
    for _ in range(100):
        until(page, "document.body.dataset.turn === 'yes'")
        before = page.locator("#picture").inner_html()
        version = page.evaluate("document.body.dataset.version")
        page.locator("#moves button").first.click()
        until(page, f"document.body.dataset.version !== '{version}'")
        if page.evaluate("document.body.dataset.turn") != "yes" or page.locator("#undo").is_hidden():
            continue
        # Offered only when it acts: the undo is done, the move's picture gone.
        moved = page.evaluate("document.body.dataset.version")
        page.click("#undo")
        until(page, f"document.body.dataset.version !== '{moved}'")
        assert page.locator("#message").inner_text() == ""
        assert page.locator("#picture").inner_html() == before
        # Each log line carries one number, its move's (the list's own number, set to the ply).
        lines = page.evaluate("[...document.querySelectorAll('#log li')].map(li => [li.value, li.textContent])")
        with server.client() as c:
            log = c.get(f"/api/t/{tok}").json()["log"]
        plies = [e["ply"] for e in log for _ in (e["lines"] or ([e["name"]] if e["name"] else []))]
        assert lines and [value for value, _ in lines] == plies
        assert not any(text.split(" ")[0].rstrip(".").isdigit() for _, text in lines)
        finish(page)
        return
    raise AssertionError("no move could be undone")


def test_a_game_goes_on_after_a_restart(browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    server = Server(tmp_path / "web.sqlite3").start()
    with server.client() as c:
        (tok,) = start(c, "duell-der-drachen", ["human", "random"], seed=3)
    page = page_of(browser, server, f"/t/{tok}")
    until(page, "document.body.dataset.turn === 'yes'")
    page.locator("#moves button").first.click()
    until(page, "document.body.dataset.version !== '0' && document.body.dataset.turn === 'yes'")
    seen = page.locator("#picture").inner_html()
    server.stop()
    server = Server(tmp_path / "web.sqlite3").start()
    ORIGINS[id(page.context)].add(server.url)
    try:
        page.goto(f"{server.url}/t/{tok}")  # the same link on the restarted server (a new port here)
        page.wait_for_selector("#picture svg")
        assert page.locator("#picture").inner_html() == seen
        click_to_the_end(page, random.Random(3))
    finally:
        server.stop()
        finish(page)


def test_bots_watched_then_replayed(browser: Any, server: Server) -> None:
    with server.client() as c:
        (tok,) = start(c, "duo-regna", ["random", "random"], seed=9)
        page = page_of(browser, server, f"/t/{tok}")
        until(page, "document.body.dataset.over === 'true'", seconds=120)
        table_id = c.get("/api/tables").json()[0]["id"]
        outcome = c.get(f"/api/tables/{table_id}/record").json()["outcome"]
    page.goto(f"{server.url}/replay?table={table_id}")
    until(page, "document.body.dataset.ply === '0'")
    page.keyboard.press("ArrowRight")
    until(page, "document.body.dataset.ply === '1'")
    assert page.locator("#outcome").inner_text() == ""
    page.click("#last")
    until(page, "Number(document.body.dataset.ply) > 1 && document.body.dataset.over === 'true'")
    ending = page.locator("#outcome").inner_text()
    assert ending.endswith("points " + " : ".join(map(str, outcome["scores"])))
    assert ending.startswith("A draw" if not outcome["winners"] else f"Won by seat {outcome['winners'][0]} (random)")
    page.click("#prev")
    until(page, "document.body.dataset.over === 'false'")
    assert page.locator("#outcome").inner_text() == "" and page.locator("#log li").count() >= 1
    finish(page)


def test_every_page_keeps_to_its_own_origin_under_the_csp(browser: Any, server: Server) -> None:
    with server.client() as c:
        (tok,) = start(c, "regnum", ["human", "random"], seed=1)
    page = page_of(browser, server, "/")
    page.wait_for_selector("#game option", state="attached")
    paths = ["/replay", f"/t/{tok}", "/t/no-such-link", *(f"/rules/{g}" for g, _ in GAMES)]
    for path in paths:
        page.goto(f"{server.url}{path}")
        page.wait_for_load_state("load")
    page.goto(f"{server.url}/t/{tok}")
    page.wait_for_selector("#picture svg")
    finish(page)
    stranger = page_of(browser, server, "/", key=False)  # no key: the page that says so
    assert "key" in stranger.locator("#message").inner_text()
    finish(stranger)


def test_an_inline_script_is_refused_and_reported(browser: Any, server: Server) -> None:
    """The watch hears a violation: a script written into the page is not run."""
    page = page_of(browser, server, "/replay")
    page.evaluate(
        "() => { const s = document.createElement('script'); s.textContent = 'window.ran = 1';"
        " document.body.append(s); }"
    )
    page.wait_for_timeout(300)
    assert page.evaluate("window.ran") is None
    problems = PROBLEMS[id(page.context)]
    assert any("script-src" in p for p in problems), problems
    problems.clear()
    finish(page)
