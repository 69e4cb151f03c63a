"""The rest of a run's messages: `kesi/plan`, `kesi/runFinished` (design §2.5, §2.10), and the
server's requests to our clients, `kesi/reviewEdit`, `kesi/saveDocuments`, `kesi/diagnostics`
(§2.7, §2.10), each with the answer it expects.

Every line a user reads is in the payload, rendered by the server in the session's locale
(issue 25): the plan's `title`, `lines` and `current`, the run's `line` and `lines`, the
review's `title`, `question` and buttons (`actions`, Deny first).
"""

from __future__ import annotations

from typing import Any, Literal

from attrs import field, frozen

from kesi_lsp.lsp.contract.shape import ABSENT
from kesi_lsp.lsp.contract.stream import Usage

PlanStatus = Literal["pending", "in_progress", "completed"]
RunStatus = Literal["done", "cancelled", "failed", "limit"]
VerdictStatus = Literal["verified", "failed", "unverified"]
Decision = Literal["reject", "accept", "acceptSession"]


@frozen(kw_only=True)
class PlanItem:
    content: str
    status: PlanStatus


@frozen(kw_only=True)
class PlanParams:
    """`kesi/plan`: the model's whole plan after each update, and as the server renders it:
    `title` (`Plan: 1 of 4 done`), `lines` (one per item, its mark first: `✓`, `▶`, `○`) and
    `current` (`step 2 of 4: Fix the sign`, null when no step is in progress)."""

    run_id: str
    items: list[PlanItem]
    title: str
    lines: list[str]
    current: str | None


@frozen(kw_only=True)
class VerdictView:
    """The server's verdict on a run's changes (§2.10), never the model's word; `text` is the
    status in the session's words."""

    TS_NAME = "Verdict"

    status: VerdictStatus
    text: str
    by: str | None
    detail: str


@frozen(kw_only=True)
class VerdictChangedParams:
    """`kesi/verdict` (to clients with `experimental.kesi.stream`): the verdict of a run that
    ended changed, because the user undid (or brought back) what its check ran on. `uri` is
    the folder, `verified` the verdict now, `line` the same in words (log-only clients get it
    as a log line)."""

    run_id: str
    uri: str
    verified: VerdictView
    line: str


@frozen(kw_only=True)
class RunFinishedParams:
    """`kesi/runFinished`, once per run: `statusText` is the status and `bill` the seed's bill
    line (null when the run made no request), both in the session's words; `line` the run's last
    line (status · verdict · bill) and `lines` the log's closing lines (why it stopped, the
    verdict and its detail, the bill); `limit` names the limit a `limit` run stopped at;
    `verified` is null when the run changed and checked nothing."""

    TS_NAME = "RunFinished"

    run_id: str
    status: RunStatus
    text: str
    usage: Usage
    session_usage: Usage
    edits: list[str]
    status_text: str
    bill: str | None
    limit: str | None
    verified: VerdictView | None
    lines: list[str]
    line: str


@frozen(kw_only=True)
class ReviewAction:
    """One button of an edit review: its words and what it answers."""

    title: str
    decision: Decision


@frozen(kw_only=True)
class ReviewEditParams:
    """`kesi/reviewEdit`: the change to review (`before` null for a new file) and the words to
    ask with: `title`, `question`, `scope` (what "Allow for this session" covers: this one
    file, until the session ends) and `actions`, the buttons in the order to show them, Deny
    first in every locale (「不要」, 「這次」, 「這個 session 都好」 under zh-TW). `proposal`
    (added later: a client must not require it) names the proposed text where the client
    shows it, a diff editor's tab ("KeSi's proposal: calc.py")."""

    run_id: str
    uri: str
    path: str
    before: str | None
    after: str
    diff: str
    title: str
    question: str
    scope: str
    actions: list[ReviewAction]
    proposal: str | None = field(default=None, metadata=ABSENT)


@frozen(kw_only=True)
class ReviewEditAnswer:
    """The client's answer: `after` is the text the user accepted when they kept only some
    hunks (absent: all of it)."""

    decision: Decision
    after: str | None = field(default=None, metadata=ABSENT)


@frozen(kw_only=True)
class SaveDocumentsParams:
    """`kesi/saveDocuments`: save these buffers after an accepted edit (§2.7 step 3)."""

    uris: list[str]


@frozen(kw_only=True)
class SaveDocumentsResult:
    """What the client answers: each URI lands in exactly one list."""

    saved: list[str]
    not_open: list[str]
    failed: list[str]


@frozen(kw_only=True)
class DiagnosticsParams:
    """`kesi/diagnostics`: the files whose problems the server asks about (§2.10)."""

    uris: list[str]


@frozen(kw_only=True)
class DiagnosticsItem:
    """One file's LSP `Diagnostic`s as JSON (read leniently: junk is skipped) and, when the
    editor counts them, how many times they were updated."""

    uri: str
    diagnostics: list[dict[str, Any]]
    changes: int | None = field(default=None, metadata=ABSENT)


@frozen(kw_only=True)
class DiagnosticsResult:
    items: list[DiagnosticsItem]
