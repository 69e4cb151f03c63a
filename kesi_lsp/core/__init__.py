"""The KeSi agent, editor-agnostic.

Nothing in this package imports pygls or lsprotocol, reads the process's working directory,
stdin or stdout, or prints. It meets the outside world through three seams:

- a model client (`kesi_lsp.core.model`): an async stream of model events;
- an approver (`kesi_lsp.core.approval`): async "allow once / allow for session / deny";
- a workspace view (`kesi_lsp.core.workspace`): the current text of a file (the editor buffer
  when open) and the delivery of an edit, which the user may reject;

and it reports what happens as typed events (`kesi_lsp.core.events`).
"""
