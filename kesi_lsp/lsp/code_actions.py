"""The "KeSi: fix this" code action (design §2.4).

Offered where it helps: a `quickfix` carrying the context's diagnostics when there are some, a
`refactor.rewrite` otherwise. KeSi's own clients (they announce `experimental.kesi` and have
"KeSi: Ask" for a bare cursor) get it on an automatic request (the lightbulb) only on a
problem or a selection, so the lightbulb does not sit on every line (issue 32); asked for
explicitly (Ctrl+., `M-x eglot-code-actions`) and for every other client, on any range.
Its command is `kesi.fixThis`; answering the code action itself never calls the model (it
must be instant, and editors ask for code actions on every cursor move). Where KeSi changed
the file, its keep / undo actions come first (`change_actions.py`).
"""

from __future__ import annotations

from lsprotocol import types

from kesi_lsp.catalog import text
from kesi_lsp.core import is_ignored
from kesi_lsp.lsp.args import unstructure
from kesi_lsp.lsp.change_actions import change_actions
from kesi_lsp.lsp.change_marks import SOURCE
from kesi_lsp.lsp.commands import FIX_THIS
from kesi_lsp.lsp.folders import containing_folder, uri_to_path
from kesi_lsp.lsp.server import KesiServer

KINDS = [types.CodeActionKind.QuickFix, types.CodeActionKind.RefactorRewrite]


def wanted(kind: str, only: list[str] | None) -> bool:
    """Whether `kind` falls under the client's `only` filter (kinds are hierarchical)."""
    if not only:
        return True
    return any(kind == prefix or kind.startswith(prefix + ".") for prefix in only)


def _kind(kind: types.CodeActionKind | str) -> str:
    return str(kind.value if isinstance(kind, types.CodeActionKind) else kind)


def _helps(
    ls: KesiServer, params: types.CodeActionParams, diagnostics: list[types.Diagnostic]
) -> bool:
    """Whether "fix this" belongs here: not on a bare cursor that our client's lightbulb asks
    about by itself (it has no problem to fix and nothing selected)."""
    automatic = params.context.trigger_kind == types.CodeActionTriggerKind.Automatic
    bare = params.range.start == params.range.end and not diagnostics
    return not (ls.features.kesi and automatic and bare)


def code_actions(ls: KesiServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    path = uri_to_path(params.text_document.uri)
    folder = containing_folder(ls.folders(), path) if path is not None else None
    if path is None or folder is None or path.resolve() == folder.path:
        return []
    if is_ignored(folder.path, path.resolve()):  # KeSi never reads these, so never offers
        return []
    only = [
        str(k.value if isinstance(k, types.CodeActionKind) else k)
        for k in params.context.only or []
    ]
    locale = ls.locale_for(folder)
    session = ls.sessions.peek(folder)
    ours = change_actions(session, path.resolve(), params, locale) if session is not None else []
    ours = [a for a in ours if a.kind is None or wanted(_kind(a.kind), only)]
    diagnostics = [d for d in params.context.diagnostics if d.source != SOURCE]
    kind = types.CodeActionKind.QuickFix if diagnostics else types.CodeActionKind.RefactorRewrite
    if not wanted(kind.value, only) or not _helps(ls, params, diagnostics):
        return ours
    title = text("lsp.action.fix_this", locale)
    argument = {
        "uri": params.text_document.uri,
        "range": unstructure(params.range),
        "diagnostics": [unstructure(d) for d in diagnostics],
    }
    return [
        *ours,
        types.CodeAction(
            title=title,
            kind=kind,
            diagnostics=diagnostics or None,
            command=types.Command(title=title, command=FIX_THIS, arguments=[argument]),
        ),
    ]


def register(server: KesiServer) -> None:
    server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=KINDS, resolve_provider=False),
    )(code_actions)
