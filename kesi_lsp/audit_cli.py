"""`kesi-lsp audit [--folder DIR] [--since WHEN] [--limit N] [--json] [--locale L]`: the audit
log of a folder (the current one by default) on the terminal, as `kesi.audit` shows it in the
editor: the server's own lines (`core.audit`), or each record as a JSON line (`--json`, for
`jq` and scripts; already redacted like every record).

Exit status: 0 (even with nothing recorded yet), 1 when there is no log to read (no state
folder, or it would be inside the folder), 2 for bad input, said in one sentence on stderr.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from kesi_lsp.catalog import Locale, text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--folder", default=".", help="the workspace folder (default: this one)")
    parser.add_argument("--since", help="only records from then on: 30m, 2h, 7d, or a date")
    parser.add_argument("--limit", default="50", help="the newest N records (default 50; 0: all)")
    parser.add_argument("--json", action="store_true", help="each record as one JSON line")
    parser.add_argument("--locale", choices=("en", "zh-TW"), default="en")


def main(args: argparse.Namespace) -> int:
    from kesi_lsp.core import AuditLog, audit_directory, audit_lines, audit_records, parse_since

    locale: Locale = "zh-TW" if args.locale == "zh-TW" else "en"
    folder = Path(args.folder).expanduser()
    if not folder.is_dir():
        return _bad(text("audit.cli.no_folder", locale, folder=args.folder))
    limit = _limit(args.limit)
    if limit is None:
        return _bad(text("audit.cli.bad_limit", locale, value=args.limit))
    try:
        since = parse_since(args.since) if args.since is not None else None
    except ValueError:
        return _bad(text("audit.cli.bad_since", locale, value=args.since))
    root = folder.resolve()
    directory = audit_directory(os.environ)
    log = AuditLog(directory) if directory is not None else None
    if log is None or log.inside(root):
        sys.stderr.write(text("audit.unavailable", locale) + "\n")
        return 1
    if args.json:
        for record in audit_records(log, root, limit=limit or None, since=since):
            sys.stdout.write(json.dumps(record, ensure_ascii=False) + "\n")
        return 0
    lines, _ = audit_lines(log, root, locale, enabled=True, limit=limit or None, since=since)
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


def _limit(value: str) -> int | None:
    try:
        count = int(value)
    except ValueError:
        return None
    return count if count >= 0 else None


def _bad(sentence: str) -> int:
    sys.stderr.write(sentence + "\n")
    return 2
