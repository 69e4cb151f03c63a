"""Hidden-probe checks for the red line (issue 16, design §3), spellings of our own.

Denied without asking: escalation however the name is spelt or computed, deleting `/` or home
by moving or syncing it away, setuid/setgid in every mode spelling chmod/install/rsync accept,
immutable flags, device files, erasing disks. And the other side: asking a program for its
help, listing a partition table, or a cleanup under /tmp may be approved by a human.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kesi_lsp.core.permissions import classify
from tests.core.permissions.conftest import Layout

ESCALATION = [
    "$(printf sudo) ls",
    "`echo sudo` id",
    "$(echo -n doas) sh",
    "${SUDO:-sudo} ls",
    "S=sudo; $S ls",
    "export S=pkexec; $S id",
    "function f { sudo ls; }; f",
    "runuser -u root id",
    "unshare -r sudo ls",
    "script -qc 'sudo ls' /dev/null",
    "script -q /dev/null sudo ls",  # BSD/macOS form
    "caffeinate -i sudo ls",
    "chroot / sudo ls",
]
HOME_OR_ROOT_GONE = [
    "mv ~ /tmp/old-home",
    "mv $HOME/ /tmp/x",
    "mv -t /tmp ~",
    "rsync -a --delete /tmp/empty/ ~/",
    "rsync -a --delete-after empty/ /",
    "rsync -a --del empty/ $HOME",
    "rsync -a --remove-source-files ~/ /tmp/backup/",
    'rm -rf "${HOME:?}/"',
    "rm -rf ${HOME:-/tmp}",
    "pushd ~ && rm -rf *",
]
SETUID = [
    "chmod =4755 tool",
    "chmod +4000 tool",
    "chmod 0004755 tool",
    "chmod u+x+s tool",
    "chmod g-w+s dir",
    "chmod a=rwx,u+s tool",
    "install -Dm4755 tool bin/tool",
    "install -pm 2755 tool bin/tool",
    "rsync -a --chmod=u+s tool bin/",
]
IMMUTABLE_AND_DEVICES = [
    "chattr +i /etc/resolv.conf",
    "chattr -i important",
    "chattr -R +a logs",
    "chflags schg /etc/hosts",
    "chflags noschg x",
    "mknod disk b 8 0",
    "mknod -m 600 raw c 1 1",
]
ERASES_DISKS = [
    "parted -s /dev/sda mktable gpt",  # mktable: mklabel's other name
    "parted /dev/sda set 1 boot on",
    "parted /dev/sdb",  # interactive: what it reads could change anything
    "sfdisk --delete /dev/sda 1",
    "cryptsetup luksFormat /dev/sdb1",
    "nvme format /dev/nvme0n1",
    "badblocks -w /dev/sdc",
    "mkfs.btrfs -f /dev/vdb",
    "mkreiserfs /dev/sdb1",
    "lvremove -f vg/root",
]


@pytest.mark.parametrize(
    "command", ESCALATION + HOME_OR_ROOT_GONE + SETUID + IMMUTABLE_AND_DEVICES + ERASES_DISKS
)
def test_denied(layout: Layout, command: str) -> None:
    verdict = classify(command, layout.root, layout.home)
    assert verdict.kind == "deny", (command, verdict.reason)


def test_chmod_reference_copies_a_setuid_bit(layout: Layout, tmp_path: Path) -> None:
    model = tmp_path / "suid-model"
    model.write_text("")
    model.chmod(0o4755)
    plain = tmp_path / "plain-model"
    plain.write_text("")
    assert classify(f"chmod --reference={model} x", layout.root, layout.home).kind == "deny"
    assert classify(f"chmod --reference {model} x", layout.root, layout.home).kind == "deny"
    assert classify(f"chmod --reference={plain} x", layout.root, layout.home).kind == "ask"


ASKS_NOT_DENIED = [
    "modprobe --help",
    "mkfs --version",
    "dd --help",
    "mkfs-helper --check",  # not mkfs: a name that only starts like it
    "parted /dev/sda print",
    "parted -s /dev/sda unit MB print",
    "parted -l",
    "fdisk -l /dev/sda",
    "mv ~/notes.txt .",
    "mv -t ~ build.log",  # into home, not home itself
    "rsync -a --delete src/ backup/",
    "rsync -a --delete ./ /tmp/mirror/",
    "rsync -a ~/photos/ /tmp/copy/",
    "chmod u-s tool",
    "chmod -s tool",
    "chmod 1777 /tmp/shared",
    "chattr +C nocow-dir",
    "mknod fifo p",
    "find /tmp -type f -name '*.tmp' -delete",
    "echo $(printf 'sudo is not run here')",
]


@pytest.mark.parametrize("command", ASKS_NOT_DENIED)
def test_asks_not_denied(layout: Layout, command: str) -> None:
    verdict = classify(command, layout.root, layout.home)
    assert verdict.kind == "ask", (command, verdict.reason)
