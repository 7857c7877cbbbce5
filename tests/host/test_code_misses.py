"""Wrong link codes are counted in the accounts store, never per host.

A guesser got ten tries per host of a cluster, and ten more after each
restart, when each host counted them in memory. The count is in the store
(SQLite or PostgreSQL): every host of a database adds to one count, a restart
keeps it, and the tenth wrong code voids the account's code.
"""

from __future__ import annotations

import contextlib
import logging
from pathlib import Path

import pytest

from paris_tui.host.accounts.store import CODE_ALPHABET, CODE_LENGTH, CODE_MISSES, normalize_code
from paris_tui.net.client import HostClient, RefusedError

from .helpers import running_host


async def _miss(port: int, wrong: str, times: int) -> None:
    guesser = await HostClient.connect("127.0.0.1", port)
    for _ in range(times):
        with pytest.raises(RefusedError) as refused:
            # A table opened with the code is proven where it is asked (no relay).
            await guesser.open_table("ann", ("me", "ai:easy"), code=wrong)
        assert refused.value.code == "bad_code"
    await guesser.close()


async def test_wrong_codes_count_across_hosts_and_restarts(
    tmp_path: Path, store: str | None, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="paris_tui.host")
    first = CODE_MISSES // 2
    async with contextlib.AsyncExitStack() as stack:
        _a, port_a = await stack.enter_async_context(
            running_host(tmp_path / "a", ["ann,bob"], database=store)
        )
        laptop = await HostClient.connect("127.0.0.1", port_a)
        seated = await laptop.join("ann")
        info = await laptop.account("ann", seated.token, "code")
        assert info.code is not None
        await laptop.close()
        wrong = next(
            c * CODE_LENGTH for c in CODE_ALPHABET if c * CODE_LENGTH != normalize_code(info.code)
        )
        await _miss(port_a, wrong, first)
        if store is None:  # one data directory: the same host again, after a restart
            await stack.aclose()
            where = tmp_path / "a"
        else:  # one database: another host, while the first serves on
            where = tmp_path / "b"
        async with running_host(where, database=store) as (_b, port_b):
            await _miss(port_b, wrong, CODE_MISSES - first)
            assert any("wrong link codes for ann" in r.getMessage() for r in caplog.records)
            phone = await HostClient.connect("127.0.0.1", port_b)
            with pytest.raises(RefusedError) as refused:  # the right code, too late
                await phone.open_table("ann", ("me", "ai:easy"), code=info.code)
            assert refused.value.code == "bad_code"
            await phone.close()
