"""``paris-tui host tournament create|list|cancel`` through the command line, on both stores."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paris_tui.cli import main
from paris_tui.host.tournaments.command import parse_start


@pytest.fixture(autouse=True)
def _no_database(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PARIS_TUI_DATABASE", raising=False)


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["host", "tournament", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_create_list_cancel(
    tmp_path: Path, store: str | None, capsys: pytest.CaptureFixture[str]
) -> None:
    where = ["--data-dir", str(tmp_path)] if store is None else ["--database", store]
    assert _run(capsys, "list", *where) == (0, "No tournaments yet.\n", "")
    status, out, err = _run(
        capsys,
        "create",
        "Winter Cup",
        "--format",
        "swiss",
        "--players",
        "3",
        "--rounds",
        "4",
        "--move-time",
        "2m",
        "--start",
        "2099-12-24T18:00",
        *where,
    )
    assert (status, err) == (0, "")
    assert out == "Made tournament Winter Cup: open for entries until 2099-12-24 18:00 UTC.\n"
    status, out, err = _run(
        capsys,
        "create",
        "KO",
        "--format",
        "knockout",
        "--players",
        "4",
        "--move-time",
        "1d",
        "--start",
        "2099-12-25T18:00+01:00",
        "--rated",
        "--min-games",
        "5",
        *where,
    )
    assert status == 0, err
    status, out, _err = _run(capsys, "list", *where)
    assert status == 0
    assert out.splitlines() == [
        "Winter Cup (open): swiss, 3 a table, 4 rounds, 2 min a move, "
        "starts 2099-12-24 18:00 UTC, 0 entered",
        "KO (open): knockout, 4 a table, the rounds its entrants need, 24 h a move, "
        "starts 2099-12-25 17:00 UTC, 0 entered, rated",
    ]
    status, out, _err = _run(capsys, "list", "--json", *where)
    rows = json.loads(out)["tournaments"]
    assert [(r["name"], r["format"], r["players"], r["rated"], r["min_games"]) for r in rows] == [
        ("Winter Cup", "swiss", 3, False, 0),
        ("KO", "knockout", 4, True, 5),
    ]
    assert rows[1]["move_time"] == 86400.0
    assert _run(capsys, "cancel", "ko", *where) == (0, "Cancelled tournament KO.\n", "")
    status, _out, err = _run(capsys, "cancel", "ko", *where)
    assert status == 1 and "no open or running tournament is named ko" in err
    status, out, _err = _run(capsys, "list", *where)
    assert "KO (cancelled)" in out


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--format", "swiss", "--players", "2"], "needs --rounds from 1 to 30"),
        (["--format", "swiss", "--players", "2", "--rounds", "31"], "needs --rounds"),
        (["--format", "round-robin", "--players", "2", "--rounds", "3"], "--rounds is for a Swiss"),
        (["--format", "knockout", "--players", "2", "--min-games", "-1"], "--min-games is from 0"),
    ],
)
def test_create_refuses_bad_settings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], says: str
) -> None:
    status, out, err = _run(
        capsys,
        "create",
        "Cup",
        *args,
        "--move-time",
        "2m",
        "--start",
        "+1h",
        "--data-dir",
        str(tmp_path),
    )
    assert (status, out) == (2, "")
    assert says in err


def test_create_refuses_bad_times_names_and_a_second_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["--format", "swiss", "--players", "2", "--rounds", "3", "--data-dir", str(tmp_path)]
    status, _out, err = _run(capsys, "create", "Cup", *base, "--move-time", "2q", "--start", "+1h")
    assert status == 2 and "--move-time: '2q' is no move time" in err
    status, _out, err = _run(capsys, "create", "Cup", *base, "--move-time", "2m", "--start", "x")
    assert status == 2 and "'x' is no time" in err
    status, _out, err = _run(
        capsys, "create", "Cup", *base, "--move-time", "2m", "--start", "2001-01-01"
    )
    assert status == 2 and "--start is in the past: 2001-01-01 00:00 UTC" in err
    status, _out, err = _run(
        capsys, "create", "Cup\u202e", *base, "--move-time", "2m", "--start", "+1h"
    )
    assert status == 2 and "Cup" in err
    assert _run(capsys, "create", "Cup", *base, "--move-time", "2m", "--start", "+1h")[0] == 0
    status, _out, err = _run(capsys, "create", "CUP", *base, "--move-time", "2m", "--start", "+1h")
    assert status == 1 and "already open or running" in err
    status, _out, err = _run(capsys, "list", "--data-dir", str(tmp_path / "none"))
    assert status == 1 and "is not a folder" in err


def test_parse_start() -> None:
    assert parse_start("+30m", 1000.0) == 2800.0
    assert parse_start("+2h", 0.0) == 7200.0
    assert parse_start("+1d", 0.0) == 86400.0
    assert parse_start("1970-01-02T00:00", 0.0) == 86400.0
    assert parse_start("1970-01-02T01:00+01:00", 0.0) == 86400.0
    with pytest.raises(ValueError):
        parse_start("tomorrow", 0.0)


def test_enter_and_withdraw_accounts(
    tmp_path: Path, store: str | None, capsys: pytest.CaptureFixture[str]
) -> None:
    from paris_tui.host.accounts.command import invite
    from paris_tui.host.accounts.postgres import PostgresAccounts
    from paris_tui.host.accounts.store import open_accounts
    from paris_tui.host.store.postgres import PostgresStore

    where = ["--data-dir", str(tmp_path)] if store is None else ["--database", store]
    made = ["--format", "swiss", "--players", "2", "--rounds", "3", "--move-time", "2m"]
    assert _run(capsys, "create", "Cup", *made, "--start", "+1h", *where)[0] == 0
    assert (
        _run(capsys, "create", "Pro", *made, "--start", "+1h", "--min-games", "3", *where)[0] == 0
    )
    status, _out, err = _run(capsys, "enter", "Cup", "ann", *where)
    assert status == 1 and "no account is named ann" in err
    if store is None:
        accounts = open_accounts(tmp_path / "host")
        for name in ("ann", "bob"):
            invite(accounts, name)
        accounts.close()
    else:
        tables = PostgresStore(store, pool_size=1)
        tables.open()
        for name in ("ann", "bob"):
            invite(PostgresAccounts(tables.pool), name)
        tables.close()
    assert _run(capsys, "enter", "cup", "ann", "bob", *where) == (
        0,
        "ann entered Cup from round 1.\nbob entered Cup from round 1.\n",
        "",
    )
    status, _out, err = _run(capsys, "enter", "Cup", "ann", *where)
    assert status == 1 and "already entered" in err
    status, _out, err = _run(capsys, "enter", "Pro", "ann", *where)
    assert status == 1 and "ann has 0 rated games; this tournament asks for 3" in err
    assert _run(capsys, "withdraw", "Cup", "bob", *where) == (0, "bob withdrew from Cup.\n", "")
    status, _out, err = _run(capsys, "withdraw", "Cup", "bob", *where)
    assert status == 1 and "bob is not in Cup" in err
    status, out, _err = _run(capsys, "list", *where)
    assert "Cup (open): swiss, 2 a table, 3 rounds, 2 min a move" in out and "1 entered" in out
    status, _out, err = _run(capsys, "enter", "Nothing", "ann", *where)
    assert status == 1 and "no open or running tournament is named Nothing" in err
