"""The `kesi-lsp demo` command line (kept free of heavy imports: `kesi-lsp --version` loads it)."""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Copy a sample project with a failing test to a temporary folder, start kesi-lsp as an "
        "editor would, ask it to fix the failure, and show everything: the streamed "
        "explanation, tool calls, permission prompts, diffs, the test run and the bill. "
        "Without ANTHROPIC_API_KEY it plays a recorded run on a local scripted Messages API. "
        "Exit status 0 means the sample's tests ended green."
    )
    parser.add_argument(
        "-y",
        "--yes",
        action="store_true",
        help='answer every permission prompt "Allow once" and every edit review "accept"',
    )
    parser.add_argument(
        "--model",
        help="the model to use with a real API key (default: kesi-lsp's, claude-haiku-4-5)",
    )
    parser.add_argument(
        "--recorded",
        action="store_true",
        help="play the recorded run even when ANTHROPIC_API_KEY is set",
    )
    parser.add_argument(
        "--locale",
        choices=("en", "zh-TW"),
        default="en",
        help="language of KeSi and of the demo (zh-TW: the KeSi blog's own wording)",
    )
    parser.add_argument(
        "--dir",
        help="create the sample project here (must not exist yet) and keep it afterwards",
    )
    parser.add_argument(
        "--keep", action="store_true", help="keep the temporary project folder afterwards"
    )
    parser.add_argument(
        "--pace",
        type=float,
        help="replay speed of the recorded run: 1 = the blog's measured timing, 0 = no waiting "
        "(default: 1 on a terminal, 0 otherwise)",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=600.0,
        help="seconds KeSi may work before the demo cancels the run (default: 600)",
    )
