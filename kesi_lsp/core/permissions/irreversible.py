"""The red line's other half (design §3): what cannot be taken back besides removing `/` or home.

- writing to a disk device directly (`dd of=/dev/sda`, `> /dev/nvme0n1`, `tee /dev/sdb`),
- making filesystems, repartitioning or erasing disks (`mkfs.*`, `mke2fs`, `mkswap`, `wipefs`,
  `fdisk`/`sfdisk`/`parted` that is not just listing, `diskutil eraseDisk`, `cryptsetup
  luksFormat`, `badblocks -w`, `nvme format`),
- loading or unloading kernel modules (`insmod`, `rmmod`, `modprobe`, `kextload`),
- setting setuid/setgid bits, capabilities, immutable flags, device files (`modebits.py`),
- overwriting system files (`> /etc/passwd`, `cp x /usr/bin/ls`, `sed -i ... /etc/hosts`);
  deleting them is `removal.py`'s;
- stopping the machine, killing every process, fork bombs, `chmod -R`/`chown -R` of system
  folders (`wholesystem.py`), forced pushes and `git clean -f` outside the workspace
  (`gitloss.py`).

Asking a program for its help or version (`modprobe --help`) is not on the line.

Command names are compared without case (on macOS' disk `MKFS` is `mkfs`). Like the rest of the
red line this catches accidents, not attackers.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import PurePosixPath
from typing import Final

from kesi_lsp.core.permissions.gitloss import git_denial
from kesi_lsp.core.permissions.modebits import mode_denial
from kesi_lsp.core.permissions.removal import Denial, Places, expand, operands, overwrite_denial
from kesi_lsp.core.permissions.shellwords import Word
from kesi_lsp.core.permissions.wholesystem import whole_system

BLOCK_DEVICE: Final = re.compile(
    r"^/dev/(sd[a-z]+\d*|hd[a-z]+\d*|vd[a-z]+\d*|xvd[a-z]+\d*|nvme\d+(n\d+)?(p\d+)?"
    r"|mmcblk\d+(p\d+)?|loop\d+|dm-\d+|md\d+|nbd\d+|rbd\d+|bcache\d+|zram\d+|sr\d+"
    r"|mapper/.+|disk/.+|r?disk\d+(s\d+)*|mem|kmem|port)$",
    re.IGNORECASE,
)
MAKES_FILESYSTEM: Final = frozenset(
    {"mkfs", "newfs", "mke2fs", "mkswap", "mkdosfs", "mkntfs", "mkexfatfs", "mkexfat", "wipefs"}
    | {"mkfatfs", "mkreiserfs", "mkudffs", "blkdiscard", "sgdisk", "gdisk", "cfdisk", "cgdisk"}
    | {"zpool", "pvremove", "vgremove", "lvremove"}
)
MAKES_FILESYSTEM_PREFIXES: Final = ("mkfs.", "newfs_", "newfs.")
PARTITION_EDITORS: Final = frozenset({"fdisk", "sfdisk"})
PARTITION_CHANGES: Final = frozenset(
    {"mklabel", "mktable", "mkpart", "mkpartfs", "mkfs", "rm", "resizepart", "resize", "rescue"}
    | {"move", "cp", "name", "set", "toggle", "disk_set", "disk_toggle", "type", "-w", "--wipe"}
    | {"--delete", "-r", "--reorder", "--part-type", "--part-label", "--part-uuid", "-A"}
    | {"--part-attrs", "--relocate", "--activate", "-N", "--move-data", "-a", "--append"}
)
"""parted's commands and sfdisk's options that change a partition table."""
ERASING_SUBCOMMANDS: Final = {
    "cryptsetup": frozenset({"luksformat", "erase", "lukserase", "reencrypt"}),
    "nvme": frozenset({"format", "sanitize"}),
    "badblocks": frozenset({"-w"}),
}
HELP_ONLY: Final = frozenset({"--help", "-h", "--version", "-V"})
DISKUTIL_ERASERS: Final = frozenset(
    {"erasedisk", "erasevolume", "zerodisk", "randomdisk", "secureerase", "partitiondisk"}
    | {"reformat", "apfs"}
)
KERNEL_MODULES: Final = frozenset(
    {"insmod", "rmmod", "modprobe", "kextload", "kextunload", "kldload", "kldunload"}
)
WRITE_ALL_OPERANDS: Final = frozenset({"tee", "shred", "truncate", "srm"})
WRITE_LAST_OPERAND: Final = frozenset({"cp", "install", "ln", "rsync", "scp"})
SAFE_DEVICES: Final = frozenset(
    {"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty"}
    | {"/dev/stdin", "/dev/stdout", "/dev/stderr", "/dev/ptmx"}
)
OUTPUT_REDIRECTIONS: Final = frozenset({">", ">>", ">|", "<>", "&>", "&>>", ">&"})

BLOCK_DEVICE_DENIAL: Final = Denial("permissions.reason.block_device")
FILESYSTEM_DENIAL: Final = Denial("permissions.reason.makes_filesystem")


def irreversible(name: str, shown: str, args: Sequence[Word], places: Places) -> Denial | None:
    """The red line for one command `name` (folded, base name) written as `shown`."""
    if args and all(w.text in HELP_ONLY for w in args):
        return None
    if name in MAKES_FILESYSTEM or name.startswith(MAKES_FILESYSTEM_PREFIXES):
        return FILESYSTEM_DENIAL
    if name in PARTITION_EDITORS and not _lists_only(args, ("-l", "--list", "-s", "--show-size")):
        return FILESYSTEM_DENIAL
    if name == "parted" and not _lists_only(args, ("-l", "--list", "print", "p")):
        return FILESYSTEM_DENIAL
    erasing = ERASING_SUBCOMMANDS.get(name, frozenset())
    if any(w.text.casefold() in erasing for w in args):
        return FILESYSTEM_DENIAL
    if name == "diskutil" and any(w.text.casefold() in DISKUTIL_ERASERS for w in args):
        return FILESYSTEM_DENIAL
    if name in KERNEL_MODULES or (name == "kmutil" and _kmutil_loads(args)):
        return Denial("permissions.reason.kernel_module", shown)
    if name == "git":
        return git_denial([w.text for w in args], places)
    denial = whole_system(name, shown, args, places) or mode_denial(name, shown, args, places)
    return denial if denial is not None else _writes(name, args, places)


def _lists_only(args: Sequence[Word], listing: tuple[str, ...]) -> bool:
    """Only listing (`fdisk -l`, `parted /dev/sda print`): a listing word and no change."""
    words = [w.text.casefold() for w in args]
    return any(w in listing for w in words) and not any(w in PARTITION_CHANGES for w in words)


def _kmutil_loads(args: Sequence[Word]) -> bool:
    return any(w.text.casefold() in ("load", "unload", "install") for w in args[:1])


def _writes(name: str, args: Sequence[Word], places: Places) -> Denial | None:
    """Commands that write to files they are given: check each target they would write."""
    targets: list[str] = []
    if name == "dd":
        targets = [w.text[3:] for w in args if w.text.casefold().startswith("of=")]
    elif name in WRITE_ALL_OPERANDS:
        targets = [w.text for w in operands(args)]
    elif name in WRITE_LAST_OPERAND or name == "mv":
        found = operands(args)
        targets = [w.text for w in (found if name == "mv" else found[-1:])]
        targets += [_value(args, "-t", "--target-directory")]
    elif name in ("sed", "perl") and any(_in_place(w.text) for w in args):
        targets = [w.text for w in operands(args)[1:]]
    return next((d for t in targets if t and (d := write_denial(t, places))), None)


def _value(args: Sequence[Word], short: str, long: str) -> str:
    for index, word in enumerate(args):
        if word.text == short and index + 1 < len(args):
            return args[index + 1].text
        if word.text.startswith(long + "="):
            return word.text.split("=", 1)[1]
    return ""


def _in_place(option: str) -> bool:
    if option.startswith("--"):
        return option.startswith("--in-place")
    return option.startswith("-") and "i" in option[1:3]


def write_denial(target: str, places: Places) -> Denial | None:
    """Tell whether writing to `target` would hit a disk device or a system file."""
    expanded = expand(target, places)
    if not expanded:
        return None
    absolute = "/" + os.path.normpath(str(places.root / expanded)).lstrip("/")
    if BLOCK_DEVICE.match(absolute):
        return BLOCK_DEVICE_DENIAL
    if absolute in SAFE_DEVICES or PurePosixPath(absolute).is_relative_to("/dev/fd"):
        return None
    if PurePosixPath(absolute).is_relative_to("/dev/shm") or absolute.startswith("/dev/pts/"):
        return None
    return overwrite_denial(expanded, places)


def redirect_denial(op: str, target: Word, places: Places) -> Denial | None:
    """An output redirection to a disk device or a system file (`> /etc/passwd`)."""
    if op not in OUTPUT_REDIRECTIONS or (op == ">&" and target.text.isdigit()):
        return None
    return write_denial(target.text, places)
