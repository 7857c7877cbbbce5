"""A throwaway PostgreSQL server for tests: ``from pg import postgres`` and ask for ``postgres``.

The fixture is session-scoped, so each pytest process (each xdist worker) starts at
most one server, on first use, and stops it when its tests are done. The server is
real (Debian's ``postgresql`` package: ``initdb`` and ``pg_ctl``, on ``PATH`` or under
/usr/lib/postgresql/*/bin; .ci/run installs it) and lives in a temporary folder:
data, Unix socket and log. It listens on that socket only (no TCP port), trusts
its one user and runs with fsync off (nothing in it outlives the tests). As root
(PostgreSQL refuses to run as root) it runs as the ``postgres`` user through
``runuser -u postgres --``.

Each test that needs a clean database makes its own (``server.create_database()``).
Without the programs the fixture skips, and fails under ``CI=true``. A test of an
outage stops the server and starts it again (:meth:`PostgresServer.stop`,
:meth:`PostgresServer.start`): its data, socket and databases stay.

pytest is needed for the fixture only: ``benchmarks/cluster_load.py`` imports
:func:`start_server` and :func:`stop_server` where only the ``postgres`` extra is
installed.
"""

from __future__ import annotations

import getpass
import glob
import os
import shlex
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

try:
    import pytest
except ImportError:  # a benchmark's import: no fixture, the server all the same
    pytest = None  # type: ignore[assignment]

__all__ = ["PostgresServer", "find_pg_bin", "postgres"]

START_TIMEOUT = 60.0  # seconds for initdb and for pg_ctl start -w, each (a loaded machine)


def find_pg_bin() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl``: on PATH, else Debian's newest version."""
    on_path = shutil.which("initdb")
    if on_path is not None and shutil.which("pg_ctl") is not None:
        return Path(os.path.realpath(on_path)).parent
    found = [Path(p).parent for p in glob.glob("/usr/lib/postgresql/*/bin/initdb")]
    found = [d for d in found if (d / "pg_ctl").is_file()]

    def version(folder: Path) -> tuple[int, ...]:
        return tuple(int(part) for part in folder.parent.name.split(".") if part.isdigit())

    return max(found, key=version) if found else None


@dataclass
class PostgresServer:
    """A running throwaway server: connect with :attr:`conninfo` or :meth:`dsn`."""

    bin_dir: Path
    folder: Path  # the temporary folder: data/, the socket, server.log
    user: str  # the database superuser (the account the server runs as)
    prefix: list[str] = field(default_factory=list)  # ["runuser", "-u", "postgres", "--"] as root
    options: str = ""  # the server's options (pg_ctl -o), for a start after a stop
    _databases: int = 0

    @property
    def data_dir(self) -> Path:
        return self.folder / "data"

    @property
    def socket_dir(self) -> Path:
        return self.folder

    @property
    def port(self) -> int:
        """Names the socket file (.s.PGSQL.5432); nothing listens on a TCP port."""
        return 5432

    def dsn(self, dbname: str = "postgres") -> str:
        """A libpq connection string (psycopg, psql)."""
        return f"host={self.socket_dir} port={self.port} user={self.user} dbname={dbname}"

    @property
    def conninfo(self) -> str:
        return self.dsn()

    def psql(self, sql: str, dbname: str = "postgres") -> str:
        """Run ``sql`` with psql (unaligned, tuples only) and return its output."""
        psql = self.bin_dir / "psql"
        program = str(psql) if psql.is_file() else "psql"
        command = [program, "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1"]
        done = subprocess.run(
            [*command, "-d", self.dsn(dbname), "-c", sql],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"psql failed ({done.returncode}): {done.stderr.strip()}")
        return done.stdout

    def _pg_ctl(self, *args: str) -> list[str]:
        return [*self.prefix, str(self.bin_dir / "pg_ctl"), "-D", str(self.data_dir), *args]

    def stop(self) -> None:
        """Stop the server, its connections cut at once, keeping its data (``-m
        fast``: what it committed is on disk, which an immediate stop would not
        promise with this server's ``synchronous_commit=off``): :meth:`start`
        brings it back."""
        _run(self._pg_ctl("-m", "fast", "-w", "-t", "30", "stop"), "pg_ctl stop")

    def start(self) -> None:
        """Start the server again (after :meth:`stop`), waiting until it answers."""
        log = str(self.folder / "server.log")
        wait = str(int(START_TIMEOUT))
        _run(self._pg_ctl("-l", log, "-o", self.options, "-w", "-t", wait, "start"), "pg_ctl start")

    def create_database(self) -> str:
        """A new empty database, its name unique in this server."""
        self._databases += 1
        name = f"test_{self._databases}"
        self.psql(f'CREATE DATABASE "{name}"')
        return name


def _run(command: list[str], what: str) -> None:
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=START_TIMEOUT, check=False
    )
    if done.returncode != 0:
        raise RuntimeError(f"{what} failed ({done.returncode}): {done.stdout}{done.stderr}")


def start_server(bin_dir: Path) -> PostgresServer:
    """initdb and start a server in a new temporary folder (see the module's doc)."""
    as_root = os.geteuid() == 0
    folder = Path(tempfile.mkdtemp(prefix="paris-pg-"))
    if len(str(folder)) > 80:  # a Unix socket's path holds 107 bytes at most
        shutil.rmtree(folder)
        folder = Path(tempfile.mkdtemp(prefix="paris-pg-", dir="/tmp"))
    prefix: list[str] = []
    user = getpass.getuser()
    if as_root:
        prefix, user = ["runuser", "-u", "postgres", "--"], "postgres"
        shutil.chown(folder, user="postgres")
        folder.chmod(0o700)
    options = (
        f"-c listen_addresses='' -k {shlex.quote(str(folder))} -p 5432 -c fsync=off"
        " -c synchronous_commit=off -c full_page_writes=off -c max_connections=20"
    )
    server = PostgresServer(
        bin_dir=bin_dir, folder=folder, user=user, prefix=prefix, options=options
    )
    _run(
        [
            *prefix,
            str(bin_dir / "initdb"),
            "-D",
            str(server.data_dir),
            "-U",
            user,
            "--auth=trust",
            "--no-sync",
            "--encoding=UTF8",
            "--locale=C",
        ],
        "initdb",
    )
    server.start()
    return server


def stop_server(server: PostgresServer) -> None:
    """Stop the server (fast: its connections are cut) and remove its folder."""
    try:
        subprocess.run(
            [
                *server.prefix,
                str(server.bin_dir / "pg_ctl"),
                "-D",
                str(server.data_dir),
                "-m",
                "immediate",
                "-w",
                "-t",
                "30",
                "stop",
            ],
            capture_output=True,
            timeout=60,
            check=False,
        )
    finally:
        shutil.rmtree(server.folder, ignore_errors=True)


def _postgres() -> Iterator[PostgresServer]:
    """A real PostgreSQL server, one per test process, started on first use."""
    bin_dir = find_pg_bin()
    if bin_dir is None:
        how = "install Debian's postgresql (apt-get install postgresql; .ci/run does it in CI)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"no initdb/pg_ctl on this CI machine: {how}")
        pytest.skip(f"no initdb/pg_ctl here: {how}")
    if os.geteuid() == 0 and shutil.which("runuser") is None:  # pragma: no cover - util-linux
        pytest.skip("running as root without runuser: PostgreSQL does not run as root")
    server = start_server(bin_dir)
    try:
        yield server
    finally:
        stop_server(server)


if pytest is not None:
    postgres = pytest.fixture(scope="session", name="postgres")(_postgres)
