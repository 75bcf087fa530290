"""The web table's API fuzzed from its own OpenAPI schema (Schemathesis): every endpoint, a
bounded number of requests each, valid and invalid, on real tables as well as made-up links.
No request gets a 5xx, every response (refusals included) matches the schema, and a refused
request (4xx) leaves every game in the database as it was."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason='the web table needs the web extra (pip install "regalia[web]")')
schemathesis = pytest.importorskip("schemathesis", reason="the API fuzzing needs Schemathesis (the test extra)")

import sqlite3  # noqa: E402

from hypothesis import HealthCheck, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from schemathesis.config import SchemathesisConfig  # noqa: E402

from regalia.registry.saves import save_game  # noqa: E402
from regalia.table.saves import saves_folder  # noqa: E402
from regalia.web import create_app  # noqa: E402
from regalia.web.tables import Tables  # noqa: E402
from tests.web_helpers import KEY  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

#: Requests per endpoint (each a few milliseconds; the whole file stays well under a minute).
EXAMPLES = 60
#: How long a live-updates stream is held open in a request here.
STREAM_SECONDS = 0.05


class Fuzzed:
    """The tables the fuzzing plays on: a person against a bot in two games, two people, a
    game of bots alone, and one that is over, in a fresh database; and a game saved by name."""

    def __init__(self, db: Path) -> None:
        # Bots move only when the test lets them (``settle``), never during a request.
        self.app = create_app(db, pace=3600, key=KEY)
        self.db = db
        self.tables: Tables = self.app.state.tables
        self.tokens: list[str] = []
        self.ids: list[str] = []
        for game, seats, options in [
            ("duo-regna", ["human", "random"], {}),
            ("regnum", ["random", "human"], {}),
            ("duo", ["human", "human"], {"rounds": 1}),
            ("regine", ["random", "random", "random"], {"players": 3}),
            ("duo-regna", ["random", "random"], {}),
        ]:
            table_id, links = self.tables.create(game, options, seats, seed=7)
            self.ids.append(table_id)
            self.tokens.extend(links.values())
        self.people = self.ids[:3]
        self.settle()
        self.over = self.ids[-1]
        while self.tables.waiting_for_bot(self.over):
            self.tables.bot_move(self.over)
        row = self.tables.store.load(self.over)
        assert row is not None and row.record.returns
        self.record = row.record.to_json()
        unfinished = self.tables.store.load(self.ids[0])
        assert unfinished is not None
        save_game(saves_folder() / "kept.json", unfinished.record)

    def settle(self) -> None:
        """Lets the bots move until a person is to move, at the tables with people."""
        for table_id in self.people:
            while self.tables.waiting_for_bot(table_id):
                self.tables.bot_move(table_id)

    def snapshot(self) -> list[tuple[Any, ...]]:
        """Every table in the database as stored."""
        with sqlite3.connect(self.db) as db:
            rows = db.execute("SELECT id, version, record FROM tables ORDER BY id").fetchall()
        db.close()
        return rows

    def version(self, token: str) -> int:
        found = self.tables.store.link(token)
        return 0 if found is None else self.tables.live(found.table_id).version

    def actions(self, token: str) -> list[int]:
        found = self.tables.store.link(token) if 8 <= len(token) <= 64 else None
        return [] if found is None else [m["action"] for m in self.tables.payload(found)["moves"]]

    def case(self, case: Any) -> Any:
        """A strategy for ``case`` with, as often as not, a real link, table, version, legal
        move, save name and match record in place of the made-up ones."""
        return st.builds(lambda choices: self._real(case, choices), st.lists(st.booleans(), min_size=8, max_size=8))

    def _real(self, case: Any, choices: list[bool]) -> Any:
        pick = iter(choices)
        path = case.path_parameters or {}
        if "token" in path and next(pick):
            path["token"] = self.tokens[sum(choices) % len(self.tokens)]
        if "table_id" in path and next(pick):
            path["table_id"] = self.ids[sum(choices) % len(self.ids)]
        query = case.query or {}
        if "/events" in case.path and "seconds" not in query:
            query["seconds"] = STREAM_SECONDS
        case.query = query
        if case.meta is not None and case.meta.generation.mode.is_negative:
            return case  # what makes it invalid stays
        if isinstance(query.get("seconds"), (int, float)) and not isinstance(query["seconds"], bool):
            query["seconds"] = min(query["seconds"], STREAM_SECONDS)
        body = case.body
        if isinstance(body, dict):
            token = str(path.get("token", ""))
            if "version" in body and next(pick):
                body["version"] = self.version(token)
                legal = self.actions(token)
                if "action" in body and legal and next(pick):
                    body["action"] = legal[sum(choices) % len(legal)]
            if "game" in body and next(pick):
                body.update(game="duo-regna", seats=["human", "random" if next(pick) else "human"], options={})
            if "name" in body and next(pick):
                body["name"] = "kept"
            if "record" in body and next(pick):
                body["record"] = self.record
        return case


class Current:
    """The application of the running test's tables (the schema is made once, at import, and
    sends its requests here)."""

    fuzzed: Fuzzed | None = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        assert self.fuzzed is not None
        await self.fuzzed.app(scope, receive, send)


CURRENT = Current()


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Fuzzed]:
    """One set of tables for every endpoint's requests (what one endpoint leaves, the next finds)."""
    folder = tmp_path_factory.mktemp("web-schema")
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setenv("XDG_DATA_HOME", str(folder / "data"))
        CURRENT.fuzzed = Fuzzed(folder / "web.sqlite3")
        yield CURRENT.fuzzed
        CURRENT.fuzzed = None


# The schema as the server publishes it (the same for every database). A body over the limit
# is refused as too large (413) before its fields are read: a rejection like 422.
REJECTIONS = [400, 401, 403, 404, 405, 406, 409, 413, 415, 422]
CONFIG = SchemathesisConfig.from_dict({"checks": {"negative_data_rejection": {"expected-statuses": REJECTIONS}}})
schema = schemathesis.openapi.from_dict(create_app(":memory:", key=KEY).openapi(), config=CONFIG)
schema.app = CURRENT


@schema.hook
def flatmap_case(context: Any, case: Any) -> Any:
    assert CURRENT.fuzzed is not None
    return CURRENT.fuzzed.case(case)


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_the_api_holds_to_its_schema(case: Any, fuzzed: Fuzzed) -> None:
    before = fuzzed.snapshot()
    response = case.call(headers={"X-Regalia-Key": KEY})
    # A request the schema allows may still be refused for what it means (400: a move that is
    # not legal now, an agent that does not exist): the schema cannot list the legal moves.
    case.validate_response(
        response,
        headers={"X-Regalia-Key": KEY},
        excluded_checks=[schemathesis.checks.positive_data_acceptance],
    )
    if 400 <= response.status_code < 500:
        assert fuzzed.snapshot() == before, f"a refused request ({response.status_code}) changed a game"
        assert isinstance(json.loads(response.content)["detail"], (str, list))
    fuzzed.settle()
