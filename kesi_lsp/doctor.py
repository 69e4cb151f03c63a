"""`kesi-lsp doctor`: check what works on this machine."""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--offline", action="store_true", help="skip the tiny model request")


def main(args: argparse.Namespace) -> int:
    print("kesi-lsp doctor is not built yet (issue 8).")
    return 2
