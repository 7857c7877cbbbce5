"""paris-tui host --hints (issue 11): the welcome says whether players may ask for a hint."""

from __future__ import annotations

from pathlib import Path

import pytest

from paris_tui.doors.command import add_host_parser
from paris_tui.host.server import Host, HostConfig
from paris_tui.net.client import HostClient
from paris_tui.net.protocol import Welcome, decode_host, encode
from paris_tui.net.table import RemoteTable


def test_the_welcome_carries_the_flag_and_an_old_host_means_no_hints() -> None:
    for hints in (True, False):
        message = Welcome(2, "paris-tui", "en", hints)
        assert decode_host(encode(message)) == message
    old = b'{"type": "welcome", "protocol": 2, "server": "paris-tui 0.9", "language": "en"}\n'
    decoded = decode_host(old)
    assert isinstance(decoded, Welcome) and decoded.hints is False


def test_the_host_command_takes_hints() -> None:
    import argparse

    parser = argparse.ArgumentParser()
    add_host_parser(parser.add_subparsers())
    assert parser.parse_args(["host", "--hints"]).hints is True
    assert parser.parse_args(["host"]).hints is False


@pytest.mark.parametrize("hints", [True, False])
async def test_a_seat_at_a_host_knows_whether_hints_are_allowed(
    tmp_path: Path, hints: bool
) -> None:
    from paris_tui.host.referee import parse_seats

    host = Host(HostConfig(data_dir=tmp_path, port=0, ai_delay=0.0, hints=hints))
    host.load()
    host.open_table(parse_seats("ann,ai:random"), seed=1)
    _, port = await host.start()
    try:
        client = await HostClient.connect("127.0.0.1", port)
        try:
            seated = await client.join("ann")
            table = RemoteTable(client, seated)
            assert table.hints_allowed is hints
        finally:
            await client.close()
    finally:
        await host.close()
