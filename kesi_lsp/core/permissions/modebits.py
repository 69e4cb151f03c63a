"""The red line for file modes and flags (design §3): setuid/setgid, immutability, devices.

- setuid/setgid bits in every spelling chmod and install accept: `u+s`, `g=rxs`, `+s`,
  `u+x+s` (several actions in one clause), `4755`, `06755`, `=4755`, `+4000`, `install -m`
  (also glued in a cluster: `-Dm4755`), `rsync --chmod=u+s`, and `chmod --reference=F` when F
  itself carries the bit (`--reference=/usr/bin/sudo`);
- file capabilities (`setcap`);
- the immutable and append-only flags the system uses to protect files (`chattr +i`, `chattr
  -a`, BSD/macOS `chflags schg`): setting or clearing them needs root and guards system files;
- device files (`mknod x b 8 0`): a new name for a disk.

Removing a bit (`chmod u-s`, `chmod -s`) is not on the red line.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from kesi_lsp.core.permissions.removal import Denial, Places, expand, operands
from kesi_lsp.core.permissions.shellwords import Word

_SETS_ID: Final = re.compile(r"[+=][rwxXtugo]*s", re.IGNORECASE)
_OCTAL: Final = re.compile(r"^[+=]?([0-7]+)$")
_INSTALL_VALUES: Final = frozenset("gotS")
_CHATTR_SPEC: Final = re.compile(r"^[+=-][A-Za-z]+$")
_CHFLAGS_SYSTEM: Final = re.compile(
    r"^(no)?(schg|schange|simmutable|sappnd|sappend|sunlnk|sunlink)$", re.IGNORECASE
)
DEVICE_TYPES: Final = frozenset({"b", "c", "u"})
"""mknod's block and character types (`p`, a named pipe, is harmless)."""


def mode_denial(name: str, shown: str, args: Sequence[Word], places: Places) -> Denial | None:
    """The red line for `name` (folded base name, written `shown`) when it sets mode bits or
    flags; None for every other command."""
    if name == "setcap":
        return Denial("permissions.reason.setuid", shown)
    if name in ("chmod", "install", "rsync") and _sets_id_bits(name, args, places):
        return Denial("permissions.reason.setuid", shown)
    if name == "chattr" and any(_CHATTR_SPEC.match(w.text) and _immutable(w.text) for w in args):
        return Denial("permissions.reason.immutable", shown)
    if name == "chflags" and any(_chflags_system(w.text) for w in args):
        return Denial("permissions.reason.immutable", shown)
    if name == "mknod":
        found = [w.text for w in operands(_without_mode(args))]
        if len(found) >= 2 and found[1].casefold() in DEVICE_TYPES:
            return Denial("permissions.reason.device_node", shown)
    return None


def _sets_id_bits(name: str, args: Sequence[Word], places: Places) -> bool:
    if name == "install":
        modes = _install_modes([w.text for w in args])
    elif name == "rsync":
        modes = [w.text.split("=", 1)[1] for w in args if w.text.startswith("--chmod=")]
        modes = [clause.split(":", 1)[-1] for mode in modes for clause in mode.split(",")]
    else:
        if _reference_sets_id(args, places):
            return True
        modes = [w.text for w in args if not w.text.startswith("--")]
    return any(mode_sets_id(mode) for mode in modes)


def mode_sets_id(mode: str) -> bool:
    """`4755`, `06755`, `=2755`, `+4000`, `u+s`, `g=rxs`, `u+x+s`, `a=rwx,u+s`."""
    octal = _OCTAL.match(mode)
    if octal:
        digits = octal.group(1)
        return len(digits) >= 4 and int(digits[-4], 8) & 0o6 != 0
    return any(_SETS_ID.search(clause) for clause in mode.split(","))


def _install_modes(texts: list[str]) -> list[str]:
    """The values of install's `-m MODE`, `-mMODE`, `--mode=MODE`, `-Dm 4755` and `-pDm4755`."""
    modes: list[str] = []
    for index, text in enumerate(texts):
        following = texts[index + 1] if index + 1 < len(texts) else ""
        if text == "--mode":
            modes.append(following)
        elif text.startswith("--mode="):
            modes.append(text.split("=", 1)[1])
        elif text.startswith("-") and not text.startswith("--"):
            for position, letter in enumerate(text[1:], start=1):
                if letter in _INSTALL_VALUES:
                    break
                if letter == "m":
                    modes.append(text[position + 1 :] or following)
                    break
    return modes


def _reference_sets_id(args: Sequence[Word], places: Places) -> bool:
    """`chmod --reference=F`: the mode copied is F's; stat F (as the shell would name it)."""
    texts = [w.text for w in args]
    references = [t.split("=", 1)[1] for t in texts if t.startswith("--reference=")]
    references += [texts[i + 1] for i, t in enumerate(texts[:-1]) if t == "--reference"]
    for reference in references:
        path = expand(reference, places)
        if not path:
            continue
        try:
            mode = (places.root / path).stat().st_mode
        except (OSError, ValueError):
            continue
        if mode & 0o6000:
            return True
    return False


def _immutable(spec: str) -> bool:
    return "i" in spec[1:] or "a" in spec[1:]


def _chflags_system(text: str) -> bool:
    return any(_CHFLAGS_SYSTEM.match(flag) for flag in text.split(","))


def _without_mode(args: Sequence[Word]) -> list[Word]:
    """mknod's words without `-m MODE` (its value is not an operand)."""
    kept: list[Word] = []
    skip = False
    for word in args:
        if skip:
            skip = False
        elif word.text in ("-m", "--mode"):
            skip = True
        else:
            kept.append(word)
    return kept
