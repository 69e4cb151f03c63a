"""`kesi/diagnostics`: ask the editor what all its language servers report (design §2.10).

Only the editor sees every language server's diagnostics (VS Code's
`languages.getDiagnostics`, Neovim's `vim.diagnostic.get`), so clients that announce
`experimental.kesi.diagnostics` answer `kesi/diagnostics {uris}` with
`{items: [{uri, diagnostics, changes?}]}`: the LSP `Diagnostic`s of each file and, when the
editor can count them, how many times its diagnostics were updated (the core uses the count to
know that a language server looked at the file again after a change). This module is that
request, translated into the core's `EditorProblems` seam.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Final, Literal

from pygls.exceptions import JsonRpcException

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core import EditorProblem, ProblemsUnavailableError, Snapshot
from kesi_lsp.lsp.contract import DiagnosticsParams
from kesi_lsp.lsp.folders import path_to_uri, uri_to_path
from kesi_lsp.lsp.link import EditorLink
from kesi_lsp.lsp.wire import ClientGoneError

log = logging.getLogger(__name__)

DIAGNOSTICS: Final = "kesi/diagnostics"
_SEVERITIES: Final[dict[object, Literal["error", "warning"]]] = {1: "error", 2: "warning"}


def _text_or_none(value: object) -> str | None:
    if isinstance(value, str | int) and not isinstance(value, bool) and str(value):
        return str(value)
    return None


def _problem(rel: str, raw: object) -> EditorProblem | None:
    """An LSP Diagnostic (JSON) as the core's EditorProblem; None for hints, infos, junk."""
    if not isinstance(raw, Mapping):
        return None
    severity = _SEVERITIES.get(raw.get("severity", 1))  # LSP: a missing severity is an error
    message = raw.get("message")
    start = raw.get("range", {}).get("start", {}) if isinstance(raw.get("range"), Mapping) else {}
    line = start.get("line") if isinstance(start, Mapping) else None
    if severity is None or not isinstance(message, str) or not isinstance(line, int):
        return None
    code = raw.get("code")
    if isinstance(code, Mapping):  # VS Code: {value, target}
        code = code.get("value")
    return EditorProblem(
        rel, line + 1, severity, message, _text_or_none(raw.get("source")), _text_or_none(code)
    )


class LspDiagnostics:
    """The core's `EditorProblems` for one run's folder, over `kesi/diagnostics`."""

    def __init__(self, link: EditorLink, root: Path, locale: Locale) -> None:
        self._link = link
        self._root = root
        self._locale = locale

    def open_files(self) -> tuple[Path, ...]:
        return tuple(self._link.documents.open_paths(self._root))

    def _uri(self, path: Path) -> str:
        doc = self._link.documents.open_document(path)
        return doc.uri if doc is not None else path_to_uri(path)

    async def snapshot(self, paths: Sequence[Path], patience: float) -> Snapshot:
        uris = {self._uri(path): path for path in paths}
        request = self._link.wire.request(DIAGNOSTICS, DiagnosticsParams(uris=list(uris)))
        try:
            answer = await asyncio.wait_for(request, patience)
        except TimeoutError:
            seconds = f"{patience:.1f}".rstrip("0").rstrip(".")
            raise ProblemsUnavailableError(
                text("problems.no_answer", self._locale, seconds=seconds)
            ) from None
        except (ClientGoneError, JsonRpcException) as exc:
            log.info("kesi/diagnostics failed: %s", exc)
            raise ProblemsUnavailableError(
                text("problems.error_answer", self._locale, error=str(exc) or type(exc).__name__)
            ) from None
        return self._read(answer, uris)

    def _read(self, answer: object, uris: Mapping[str, Path]) -> Snapshot:
        problems: dict[Path, tuple[EditorProblem, ...]] = dict.fromkeys(uris.values(), ())
        changes: dict[Path, int | None] = {}
        items = answer.get("items") if isinstance(answer, Mapping) else None
        for item in items if isinstance(items, list) else []:
            path = self._path_of(item.get("uri") if isinstance(item, Mapping) else None, uris)
            if path is None:
                continue
            rel = path.relative_to(self._root).as_posix()
            raw = item.get("diagnostics")
            found = [_problem(rel, d) for d in raw] if isinstance(raw, list) else []
            problems[path] = tuple(p for p in found if p is not None)
            count = item.get("changes")
            if isinstance(count, int) and not isinstance(count, bool):
                changes[path] = count
        return Snapshot(problems, changes)

    def _path_of(self, uri: object, uris: Mapping[str, Path]) -> Path | None:
        """The asked-for path an answered URI names (editors may re-spell a URI)."""
        if not isinstance(uri, str):
            return None
        if uri in uris:
            return uris[uri]
        path = uri_to_path(uri)
        resolved = path.resolve() if path is not None else None
        return next((p for p in uris.values() if p == resolved), None)
