"""Issue 52: a strategy and a replay format are each registered in one place, and every face lists
them from there: ``--help``, ``GET /api/meta`` and the web page's lists (which read /api/meta).

The dummies are registered where CONTRIBUTING.md says a new one goes: a strategy in
:data:`minesat.player.STRATEGIES`, a replay format with
:func:`minesat.formats.replay.register_replay_format`. The command line and the server run in a
fresh process that registers them first, as a plugin or a fork of the project would.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from minesat.formats import rmv
from minesat.formats.replay import REPLAY_FORMATS, ReplayFormat, register_replay_format
from minesat.player import STRATEGIES, SafestRowMajor

ROOT = Path(__file__).resolve().parent.parent

#: Registers a strategy ``dummy`` (the baseline's rule under another name) and a replay format
#: ``dmy`` (RMV's bytes under another name), each in its one place.
REGISTER = """
import dataclasses
from minesat.formats import rmv
from minesat.formats.replay import ReplayFormat, register_replay_format
from minesat.player import STRATEGIES, SafestRowMajor

class Dummy(SafestRowMajor):
    name = "dummy"

def read(reader):
    return dataclasses.replace(rmv.read(reader), format="dmy")

STRATEGIES["dummy"] = Dummy
register_replay_format(ReplayFormat("dmy", "Dummy Sweeper", read, rmv.write, clock="release", mode="normal"))
"""


def minesat(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``minesat ARGS`` in a fresh process that registers the dummies first."""
    code = REGISTER + "\nfrom minesat.cli import main\nmain()\n"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "COLUMNS": "200"}
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=120)


def test_the_help_lists_a_registered_strategy_and_replay_format() -> None:
    simulate = minesat("simulate", "--help")
    assert simulate.returncode == 0, simulate.stderr
    assert "safest-rowmajor, dummy, or best" in " ".join(simulate.stdout.split())
    replay = minesat("replay", "--help")
    assert replay.returncode == 0, replay.stderr
    said = " ".join(replay.stdout.split())
    assert ".evf (Metasweeper), .dmy (Dummy Sweeper)" in said
    assert "avf, rmv, mvf, evf, dmy" in said
    solve = " ".join(minesat("solve", "--help").stdout.split())
    assert ".dmy Dummy Sweeper" in solve  # it writes too


def test_a_registered_replay_format_is_read_and_written_and_its_strategy_plays(tmp_path: Path) -> None:
    (tmp_path / "layout.txt").write_text("*..\n...\n..*\n")
    solved = minesat("solve", "layout.txt", "--start", "B2", "--strategy", "dummy", "--save-replay",
                     "game.dmy", "--json", cwd=tmp_path)
    assert solved.returncode == 0, solved.stderr
    assert json.loads(solved.stdout)["strategy"] == "dummy"
    reviewed = minesat("replay", "game.dmy", "--json", cwd=tmp_path)
    assert reviewed.returncode == 0, reviewed.stderr
    assert json.loads(reviewed.stdout)["format"] == "dmy"


def test_api_meta_lists_a_registered_strategy_and_replay_format(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("starlette", reason="the web extra is not installed (pip install 'minesat[web]')")
    from starlette.testclient import TestClient

    from minesat.web.app import create_app

    class Dummy(SafestRowMajor):
        name = "dummy"

    monkeypatch.setitem(STRATEGIES, "dummy", Dummy)
    monkeypatch.setitem(REPLAY_FORMATS, "dmy", ReplayFormat("dmy", "Dummy Sweeper", rmv.read))
    with TestClient(create_app(allowed_hosts=["testserver"], workers=1, perfect_workers=1)) as client:
        meta = client.get("/api/meta").json()
        assert {"name": "dummy", "note": ""} in meta["strategies"]
        assert meta["strategies"][0] == {"name": "best", "note": "default"}
        assert {"name": "dmy", "program": "Dummy Sweeper", "written": False} in meta["replay_formats"]


def test_registering_a_replay_format_checks_its_name() -> None:
    with pytest.raises(ValueError, match="lower case"):
        register_replay_format(ReplayFormat("DMY", "Dummy Sweeper", rmv.read))
    assert "DMY" not in REPLAY_FORMATS


def test_the_page_lists_what_api_meta_says() -> None:
    """The page's lists, built in a real browser from /api/meta of a server that registered the
    dummies: the automatic player's strategies, the replay files it opens, the formats it names."""
    pytest.importorskip("starlette", reason="the web extra is not installed (pip install 'minesat[web]')")
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")
    chromium = os.environ.get("MINESAT_CHROMIUM") or next(
        (p for name in ("chromium", "chromium-browser", "google-chrome") if (p := shutil.which(name))), None)
    if chromium is None:
        pytest.skip("no Chromium found (apt-get install chromium, or set MINESAT_CHROMIUM)")
    code = REGISTER + "\nfrom minesat.cli import main\nmain()\n"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    server = subprocess.Popen([sys.executable, "-c", code, "serve", "--port", "0", "--db", ":memory:"],
                              stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env=env)
    try:
        assert server.stderr is not None
        match = re.search(r"serving on (http://127\.0\.0\.1:\d+/)", server.stderr.readline())
        assert match is not None
        url = match.group(1)
        with urllib.request.urlopen(url + "api/meta", timeout=20) as answer:
            meta = json.loads(answer.read())
        assert "dummy" in [s["name"] for s in meta["strategies"]]
        with sync_api.sync_playwright() as playwright:
            args = ["--headless", "--no-sandbox"]
            browser = playwright.chromium.launch(executable_path=chromium, args=args)
            try:
                page = browser.new_page()
                page.goto(url)
                page.wait_for_function("document.getElementById('p-strategy').options.length > 0")
                strategies = page.eval_on_selector_all("#p-strategy option", "os => os.map(o => o.value)")
                assert strategies == [s["name"] for s in meta["strategies"]]
                assert "dummy" in strategies
                accept = page.get_attribute("#r-file", "accept") or ""
                assert ".dmy" in accept.split(",") and ".avf" in accept.split(",")
                assert "Dummy Sweeper .dmy" in (page.text_content("#r-formats") or "")
                presets = page.eval_on_selector_all("#p-preset option", "os => os.map(o => o.value)")
                assert presets == [*meta["presets"], "custom"]
                rules = page.eval_on_selector_all("#p-rule option", "os => os.map(o => o.value)")
                assert rules == [rule["name"] for rule in meta["first_click"]]
            finally:
                browser.close()
    finally:
        server.terminate()
        server.wait(15)
