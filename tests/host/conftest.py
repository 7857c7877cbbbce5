"""The host tests' store: files (the default), or PostgreSQL with ``--host-store postgres``.

``running_host`` (helpers.py) serves from the store chosen here, so the host
suite runs against either: ``pytest tests/host --host-store postgres`` gives
each test a fresh database on the throwaway server of tests/pg.py.
tests/host/test_stores.py runs its tests against both in every run.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pg import postgres  # noqa: F401 - the fixture, for --host-store postgres

from . import helpers


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--host-store",
        choices=("files", "postgres"),
        default="files",
        help="where running_host keeps tables and accounts (default: files)",
    )


@pytest.fixture(autouse=True)
def _host_store(request: pytest.FixtureRequest) -> Iterator[None]:
    if request.config.getoption("--host-store") != "postgres":
        yield
        return
    server = request.getfixturevalue("postgres")
    helpers.DATABASE = server.dsn(server.create_database())
    try:
        yield
    finally:
        helpers.DATABASE = None
