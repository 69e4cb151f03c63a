"""Step 1 of a delivery: how the user reviews the change (design §2.7).

The client's capabilities choose the route (`ClientFeatures.review_route`): our clients' own
review, the editor's preview, or a prompt. A change that needs review is never delivered
unreviewed: when `workspace/applyEdit` cannot carry it (the client cannot apply edits, or cannot
create the file), the preview would never show, so the user is asked with the prompt instead.

Asking (our clients' review or the prompt) goes through the core's one approval seam
(`consult`); the preview's answer is the edit itself, applied or not, and reads the same
(`refusal`). In the preview the user may tick only part of a change: that part is their
answer, and the model is told exactly what landed.
"""

from __future__ import annotations

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core import EditRequest, FileChange, unified_diff
from kesi_lsp.lsp.approver import truncate_diff
from kesi_lsp.lsp.capabilities import ClientFeatures, ReviewRoute


def review_route(features: ClientFeatures, change: FileChange) -> ReviewRoute:
    """How to show `change`; the editor's preview only when applyEdit can carry it."""
    route = features.review_route
    creating = change.before is None
    if route is ReviewRoute.PREVIEW and (
        not features.apply_edit or (creating and not features.create_files)
    ):
        return ReviewRoute.PROMPT  # it would be written to disk directly, unseen: ask first
    return route


def edit_request(change: FileChange) -> EditRequest:
    """What the user is shown: the change and its unified diff."""
    diff = unified_diff(change.rel, change.before, change.after)
    return EditRequest(change.tool, change.path, change.rel, change.before, change.after, diff)


def partial_note(change: FileChange, kept: str, locale: Locale) -> str:
    """Tell the model exactly what landed of a change the user kept in part: a diff from its
    version to the user's."""
    diff = unified_diff(change.rel, change.after, kept)
    return text("lsp.edit.partial", locale, path=change.rel, diff=truncate_diff(diff, locale))
