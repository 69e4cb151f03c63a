"""How each editor reviews an edit, and scripting the user who answers: shared by the
delivery, disk-truth, accept-edits and end-to-end tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lsprotocol import types

from kesi_lsp.testing import ALLOW_ONCE, ALLOW_SESSION, DENY, Editor
from tests.lsp.conftest import BUGGY, FIXED
from tests.lsp.helpers import wait_for

EDIT = [
    {"do": "read", "path": "calc.py"},
    {"do": "edit", "path": "calc.py", "old": "a - b", "new": "a + b"},
]
LABEL = "KeSi: edit_file calc.py"

# preset -> the review path it must get
REVIEW_PATHS = {
    "vscode": "annotation",
    "vscode+kesi": "annotation",
    "neovim": "prompt",
    "emacs": "prompt",
    "neovim+kesi": "kesi",
    "helix": "none",
}


def outcomes(client: Editor, run_id: str) -> list[str]:
    """The tool results the agent saw, from kesi/stream or from the log lines."""
    ends = client.stream(run_id, "toolEnd")
    if ends or client.preset.name.endswith("+kesi"):
        return [end["summary"] for end in ends]
    return [line.strip()[2:] for line in client.log_lines() if line.strip().startswith(("→", "✗"))]


def tick_first_hunk(edit: types.WorkspaceEdit) -> bool:
    """The user of VS Code's Refactor Preview ticks the first of two changes and applies."""
    change = (edit.document_changes or [])[0]
    assert isinstance(change, types.TextDocumentEdit) and len(change.edits) == 2
    change.edits = change.edits[:1]  # the preview applies only what is ticked
    return True


async def type_while_held(client: Editor, calc: Path, run_id: str, project: Path) -> str:
    """Between the scripted agent's read and its edit (held by a `wait_file` of `.go`), the
    user types into calc.py; returns the edit's outcome."""
    await wait_for(lambda: len(outcomes(client, run_id)) == 1, 20)
    client.type_text(calc, "return a - b", "return a - b  # mine")
    await client.sync()
    (project / ".go").touch()
    await client.wait_finished(run_id)
    return outcomes(client, run_id)[-1]


def answer(client: Editor, accept: bool, *, session: bool = False) -> None:
    """Script the user: accept or reject whatever review this client shows."""
    client.answer_preview = lambda edit: accept
    client.answer_prompt = lambda params: (
        (ALLOW_SESSION if session else ALLOW_ONCE) if accept else DENY
    )
    client.answer_review = lambda params: (
        ("acceptSession" if session else "accept") if accept else "reject"
    )


async def run_accepting(client: Editor, opened: Path | None, prompt: str) -> dict[str, Any]:
    """Accept every review, open `opened` first (if given), run `kesi.ask` to its end."""
    answer(client, accept=True)
    if opened is not None:
        client.open(opened)
    finished: dict[str, Any] = await client.run("kesi.ask", {"prompt": prompt})
    return finished


def assert_review_path(client: Editor, path: str) -> None:
    """The edit went through review path `path`, and through no other."""
    annotated = [
        e
        for params in client.applied
        for change in params.edit.document_changes or []
        if isinstance(change, types.TextDocumentEdit)
        for e in change.edits
        if isinstance(e, types.AnnotatedTextEdit)
    ]
    if path == "annotation":
        assert annotated and not client.prompts and not client.reviews
        notes = client.applied[0].edit.change_annotations or {}
        assert all(note.needs_confirmation for note in notes.values())
    elif path == "prompt":
        assert len(client.prompts) == 1 and not client.reviews and not annotated
        prompt = client.prompts[0]
        assert prompt.type == types.MessageType.Warning
        # The safe one first (§2.6): an editor that pre-selects the first button denies.
        assert [a.title for a in prompt.actions or []] == [DENY, ALLOW_ONCE, ALLOW_SESSION]
        assert "calc.py" in prompt.message and "+    return a + b" in prompt.message
    elif path == "kesi":
        assert len(client.reviews) == 1 and not client.prompts and not annotated
        review = client.reviews[0]
        assert review["path"] == "calc.py" and review["uri"].endswith("/calc.py")
        assert review["before"] == BUGGY and review["after"] == FIXED
        assert "-    return a - b" in review["diff"] and "+    return a + b" in review["diff"]
    else:  # helix: nobody can be asked
        assert not client.reviews and not client.applied
