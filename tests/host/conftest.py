"""The host tests' store: files (the default), or PostgreSQL with ``--host-store postgres``.

``running_host`` (helpers.py) serves from the store chosen here, so the host
suite runs against either: ``pytest tests/host --host-store postgres`` gives
each test a fresh database on the throwaway server of tests/pg.py.

That leg leaves out (deselects, and says how many) the tests it would not change:

- ``@pytest.mark.files_only("why")``: a test of the data directory's files
  themselves (it damages, reads or writes them: an earlier version's seat files,
  a garbage accounts.sqlite, a file's mode), which a database does not have.
- the tests that choose their store themselves: parametrized over both stores (a
  ``store`` fixture, tests/host/test_stores.py) or asking for a database of their
  own (``database``, ``postgres``: test_cluster.py). Every run runs them, against
  files and PostgreSQL alike, already.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pg import PostgresServer, postgres  # noqa: F401 - the fixture, for --host-store postgres

from . import helpers

# The fixtures of the tests that pick their store themselves (see the module's doc).
STORE_FIXTURES = frozenset({"store", "database", "postgres"})
HOST_TESTS = Path(__file__).parent


@pytest.fixture(params=["files", "postgres"])
def store(request: pytest.FixtureRequest) -> str | None:
    """A test that runs against both stores: ``None`` for the data directory's files,
    else a fresh PostgreSQL database's URL."""
    if request.param == "files":
        return None
    server: PostgresServer = request.getfixturevalue("postgres")
    return server.dsn(server.create_database())


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--host-store",
        choices=("files", "postgres"),
        default="files",
        help="where running_host keeps tables and accounts (default: files)",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "files_only(reason): a host test of the data directory's files themselves, "
        "left out by --host-store postgres (tests/host/conftest.py)",
    )


def _store_params(items: list[pytest.Item]) -> set[tuple[Path, str]]:
    """The parametrized fixtures (module, name) that have a ``postgres`` variant:
    those of the tests that run against both stores (``store``, test_ratings's
    ``ratings`` with its ``sqlite`` variant)."""
    found: set[tuple[Path, str]] = set()
    for item in items:
        callspec = getattr(item, "callspec", None)
        if callspec is not None:
            found |= {(item.path, k) for k, v in callspec.params.items() if v == "postgres"}
    return found


def chooses_its_store(item: pytest.Item, store_params: set[tuple[Path, str]]) -> bool:
    """Whether ``item`` runs against a store it picks itself (see the module's doc)."""
    if STORE_FIXTURES & set(getattr(item, "fixturenames", ())):
        return True
    callspec = getattr(item, "callspec", None)
    return callspec is not None and any((item.path, k) in store_params for k in callspec.params)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # This hook sees every test of the run: only those under tests/host are this file's.
    host_items = [item for item in items if item.path.is_relative_to(HOST_TESTS)]
    for item in host_items:
        marker = item.get_closest_marker("files_only")
        if marker is not None and not (marker.args and isinstance(marker.args[0], str)):
            raise pytest.UsageError(f"{item.nodeid}: files_only needs its reason, a string")
    if config.getoption("--host-store") != "postgres":
        return
    store_params = _store_params(host_items)
    kept: list[pytest.Item] = []
    left: list[pytest.Item] = []
    for item in items:
        in_host = item.path.is_relative_to(HOST_TESTS)
        if in_host and (
            item.get_closest_marker("files_only") or chooses_its_store(item, store_params)
        ):
            left.append(item)
        else:
            kept.append(item)
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = kept


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
