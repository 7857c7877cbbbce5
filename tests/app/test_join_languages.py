"""One table, each player's terminal in its own language (issue 10): a real ``paris-tui
host`` on loopback, a German and a Chinese ``paris-tui join`` on ptys, and the host's
refusals worded by each client in its own language. Every wait is bounded."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from paris_tui import cli, i18n

from .pty_app import PtyApp
from .test_join_pty import start_host

MAP = "Luxem"  # a stop of the map, the same in every language


def _join(port: int, name: str, folder: Path, *lang: str) -> list[str]:
    return [*lang, "join", f"127.0.0.1:{port}", "--name", name, "--data-dir", str(folder)]


def test_a_german_and_a_chinese_player_at_one_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    host, port = start_host(tmp_path / "host", "ann,bob")
    apps: list[PtyApp] = []
    try:
        ann_dir, bob_dir = tmp_path / "ann", tmp_path / "bob"
        # Ann's terminal says German by PARIS_TUI_LANG; Bob's says Chinese by --lang
        # although his locale is German.
        ann = PtyApp(_join(port, "ann", ann_dir), {"PARIS_TUI_LANG": "de"}, size=(100, 30))
        apps.append(ann)
        bob = PtyApp(
            _join(port, "bob", bob_dir, "--lang", "zh-TW"),
            {"LANG": "de_DE.UTF-8", "PARIS_TUI_DATA_DIR": str(bob_dir)},
            size=(100, 30),
        )
        apps.append(bob)
        for app in apps:
            app.wait_for(MAP, timeout=60)
        assert ann.proc.poll() is None and bob.proc.poll() is None  # both seated and playing
        # Each screen in its own language: the footer's keys, say (q: the host's lobby).
        shown = {"ann": ann.wait_for("Hilfe", "q Lobby", timeout=60)}
        shown["bob"] = bob.wait_for("說明", "大廳", timeout=60)
        for words in shown.values():
            assert "Help" not in words and "Quit" not in words
        # A third terminal asks for Ann's seat without her token: the host refuses with a
        # code, and each client words the refusal in its own language.
        monkeypatch.setenv("PARIS_TUI_DATA_DIR", str(tmp_path / "other"))
        refused = []
        for lang in (["--lang", "de"], ["--lang", "zh-TW"], []):
            status = cli.main(_join(port, "ann", tmp_path / "other", *lang))
            _out, err = capsys.readouterr()
            assert status == 4, err
            refused.append(err)
            i18n.set_language("en")
        where = f"127.0.0.1:{port}"
        # The name is Ann's account (issue 17): the refusal says what to do, in German
        # "du", in Taiwanese Mandarin, in English.
        assert refused[0].startswith(f"paris-tui: {where} hat abgelehnt (name_taken): ")
        assert "dieses Terminal ist nicht damit verknüpft (öffne dort, wo du" in refused[0]
        assert "--code" in refused[0]
        assert refused[1].startswith(
            f"paris-tui: {where} 拒絕了（name_taken）：這個名字是主機上的帳號"
        )
        assert "打開「帳號」取得連結碼" in refused[1]
        assert refused[2].startswith(f"paris-tui: {where} refused (name_taken): ann is an account")
        assert "open Account for a link code, then join with --code" in refused[2]
        for app, lobby in ((ann, "die Tische dieses Hosts"), (bob, "這台主機的牌桌")):
            app.send(b"q")  # the table: back to the host's lobby, whose q quits
            app.wait_for(lobby, timeout=60)
            app.send(b"q")
        for app in apps:
            assert app.finish(timeout=30) == 0
    finally:
        for app in apps:
            app.kill()
        os.killpg(host.pid, signal.SIGTERM)
        host.wait(30)


async def test_join_says_its_language_in_hello(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hello of ``paris-tui join`` carries the terminal's language (protocol: language)."""
    from paris_tui.app.online import remote
    from paris_tui.net.client import HostClient
    from paris_tui.net.protocol import Hello

    said: list[Hello] = []
    real_send = HostClient.send

    def send(self: HostClient, message: object) -> None:
        if isinstance(message, Hello):
            said.append(message)
        real_send(self, message)  # type: ignore[arg-type]

    monkeypatch.setattr(HostClient, "send", send)
    host, port = start_host(Path(os.environ["PARIS_TUI_DATA_DIR"]) / "host", "ann,bob")
    try:
        for tag in ("de", "zh-TW", "en"):
            i18n.set_language(tag)
            client = await remote.connect(remote.JoinTarget("127.0.0.1", port, "ann"))
            await client.close()
        assert [hello.language for hello in said] == ["de", "zh-TW", "en"]
    finally:
        os.killpg(host.pid, signal.SIGTERM)
        host.wait(30)
