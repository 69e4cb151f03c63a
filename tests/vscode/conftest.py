"""Fixtures for the real-VS-Code tests: code-server + the packaged extension + Chromium.

`vscode` opens a project in a fresh code-server whose `kesi.serverPath` is this checkout's
`kesi-lsp` and whose environment points the Anthropic SDK at a scripted Messages API. When a
test fails (or after every test with KESI_VSCODE_KEEP=1), a screenshot of every open workbench
and the logs (code-server, the extension's output channels, the server's log) land in
`test-artifacts/vscode/<test>-<n>/`.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.vscode.code_server import CodeServer, install_extension
from tests.vscode.rig import REPO, Rig, find_rig
from tests.vscode.session import OpenVSCode, VSCode
from tests.vscode.workbench import Workbench

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# The server under test: this checkout's (the venv running pytest), or KESI_VSCODE_SERVER.
KESI_LSP = Path(os.environ.get("KESI_VSCODE_SERVER") or Path(sys.executable).parent / "kesi-lsp")
ARTIFACTS = REPO / "test-artifacts" / "vscode"


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    setattr(item, f"kesi_report_{report.when}", report)
    return report


@pytest.fixture(scope="session")
def vscode_rig() -> Rig:
    return find_rig()


@pytest.fixture(scope="session")
def kesi_extensions(vscode_rig: Rig, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An extensions directory with the packaged KeSi .vsix installed, shared by the tests."""
    scratch = tmp_path_factory.mktemp("vscode-install")
    extensions = scratch / "extensions"
    install_extension(vscode_rig, extensions, scratch)
    return extensions


@pytest.fixture(scope="module")
def chromium(vscode_rig: Rig) -> Iterator[Any]:
    """One Chromium per test module. Not per session: Playwright's sync API keeps an event
    loop running in this thread while it is open, and under xdist the worker that ran the
    VS Code tests goes on to run asyncio tests, which cannot start beside a running loop."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(vscode_rig.chromium), headless=True, args=CHROMIUM_FLAGS
        )
        yield browser
        browser.close()


@pytest.fixture
def vscode(
    request: pytest.FixtureRequest,
    vscode_rig: Rig,
    kesi_extensions: Path,
    chromium: Any,
    tmp_path: Path,
) -> Iterator[OpenVSCode]:
    """Return `open(project, api_url=..., settings={...}, env={...})` -> VSCode, ready to drive
    (`env` is added to code-server's environment, which the extension and the server inherit)."""
    opened: list[tuple[VSCode, Any]] = []

    def open_vscode(
        project: Path,
        *,
        api_url: str = "http://127.0.0.1:9",
        settings: Mapping[str, Any] | None = None,
        wait_for_server: bool = True,
        env: Mapping[str, str] | None = None,
    ) -> VSCode:
        scratch = tmp_path / f"code-server-{len(opened)}"
        scratch.mkdir()
        server = CodeServer(
            vscode_rig,
            kesi_extensions,
            scratch,
            settings={"kesi.serverPath": str(KESI_LSP), **(settings or {})},
            env={
                "ANTHROPIC_BASE_URL": api_url,
                "ANTHROPIC_API_KEY": "sk-ant-test-key",
                **(env or {}),
            },
        )
        context = chromium.new_context(viewport={"width": 1400, "height": 900})
        session = VSCode(Workbench(context.new_page(), ARTIFACTS), server, project)
        opened.append((session, context))
        server.start()
        session.workbench.open(server.folder_url(project))
        if wait_for_server:
            session.workbench.wait_for_kesi(session.server_failure)
        return session

    yield open_vscode

    failed = any(
        getattr(getattr(request.node, f"kesi_report_{when}", None), "failed", False)
        for when in ("setup", "call")
    )
    keep = failed or os.environ.get("KESI_VSCODE_KEEP") == "1"  # evidence even on success
    for index, (session, context) in enumerate(opened):
        if keep:
            _keep_evidence(request.node.name, index, session)
        context.close()
        session.server.stop()


def _keep_evidence(test: str, index: int, session: VSCode) -> None:
    folder = ARTIFACTS / f"{test}-{index}"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    session.workbench.artifacts = folder
    try:
        session.workbench.screenshot("workbench")
    except Exception as error:  # the page may be gone; the logs still help
        (folder / "screenshot-error.txt").write_text(repr(error))
    (folder / "code-server.log").write_text(session.server.log())
    for name, text in session.server.extension_logs().items():
        (folder / name).write_text(text)
    sys.stderr.write(f"\nVS Code evidence for {test}: {folder}\n")
