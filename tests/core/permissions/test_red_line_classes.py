"""The red line's classes beyond the seed (design §3), each with cases of its own.

Every class has spellings the examples in the issue did not use: other devices, other mkfs
front ends, other ways to set the bit, wrappers, substitutions, case. And the other side of each
line: what looks close but is reversible stays a question for the user, never a denial.
"""

from __future__ import annotations

import pytest

from kesi_lsp.core.permissions import classify
from tests.core.permissions.conftest import Layout

CASE_BLIND = [
    "SUDO ls",
    "Sudo -i",
    "/USR/BIN/SUDO id",
    "DoAs ls",
    "RM -rf /",
    "Rm -fr ~",
    "ls && RMDIR /",
    "ENV rm -rf /",
    "BASH -c 'rm -rf /'",
    "Timeout 5 SUDO id",
    "FIND / -DELETE -o -delete",
    "echo $(SU -c id)",
]
BLOCK_DEVICES = [
    "dd if=/dev/zero of=/dev/sda",
    "dd of=/dev/nvme0n1p2 if=image.iso bs=4M",
    "DD if=x OF=/dev/sdb",
    "cat image.iso > /dev/sdb",
    "echo x >/dev/mmcblk0",
    "tee /dev/vda < image",
    "cp disk.img /dev/xvda",
    "shred -n 1 /dev/sdc",
    "sh -c 'dd if=/dev/urandom of=/dev/disk2'",
    "timeout 9 dd of=/dev/mapper/root",
    "ls; printf x > /dev/loop0",
]
FILESYSTEMS = [
    "mkfs.ext4 /dev/sdb1",
    "mkfs -t vfat disk.img",
    "MKFS.XFS /dev/vdb",
    "mke2fs -F image",
    "mkswap /dev/sda2",
    "wipefs -a /dev/sda",
    "fdisk /dev/sda",
    "sfdisk /dev/sdb < layout",
    "parted /dev/sda mklabel gpt",
    "sgdisk --zap-all /dev/sda",
    "diskutil eraseDisk APFS Blank disk2",
    "newfs_apfs /dev/disk3",
    "blkdiscard /dev/nvme1n1",
    "env -i mkfs.btrfs -f x",
]
KERNEL_MODULES = [
    "insmod ./rootkit.ko",
    "rmmod nouveau",
    "modprobe -r kvm",
    "MODPROBE loop",
    "xargs insmod",
    "kextload /tmp/x.kext",
    "kmutil load -p /Library/Extensions/x.kext",
    "nohup modprobe evil &",
]
SETUID = [
    "chmod u+s build/tool",
    "chmod +s x",
    "chmod g+s shared",
    "chmod 4755 x",
    "chmod 2755 x",
    "chmod 06755 x",
    "chmod -R a+rxs dir",
    "chmod u=rwxs,g=rx x",
    "CHMOD u+s x",
    "find . -name tool -exec chmod u+s {} \\;",
    "install -m 4755 tool bin/tool",
    "install --mode=2755 tool bin/tool",
    "setcap cap_net_raw+ep ./ping",
]
SYSTEM_FILES = [
    "rm /etc/passwd",
    "rm -f /usr/bin/python3",
    "unlink /etc/hosts",
    "rm -rf /usr/local/lib/node_modules",
    "RM /ETC/shadow",
    "cd /etc && rm passwd",
    "echo '127.0.0.1 x' >> /etc/hosts",
    "cat x > /usr/bin/ls",
    "cp evil /usr/bin/ls",
    "mv /etc/passwd passwd.bak",
    "ln -sf /bin/sh /usr/bin/python",
    "sed -i s/a/b/ /etc/hosts",
    "truncate -s 0 /var/lib/dpkg/status",
    "tee -a /etc/sudoers",
    "dd if=x of=/boot/vmlinuz",
    "find /usr -name '*.pyc' -delete",
    "find /etc -exec rm {} +",
    "shred -u /etc/ssh/sshd_config",
]


@pytest.mark.parametrize(
    "command", CASE_BLIND + BLOCK_DEVICES + FILESYSTEMS + KERNEL_MODULES + SETUID + SYSTEM_FILES
)
def test_denied(layout: Layout, command: str) -> None:
    verdict = classify(command, layout.root, layout.home)
    assert verdict.kind == "deny", verdict.reason


REVERSIBLE = [
    "dd if=/dev/sda of=disk.img",  # reading a disk into a file in the workspace
    "cat /dev/sda > /dev/null",
    "echo x > /dev/null",
    "ls 2>/dev/null",
    "fdisk -l",
    "parted -l",
    "chmod +x run.sh",
    "chmod 755 run.sh",
    "chmod g-s shared",  # removing the bit
    "chmod 1777 scratch",  # the sticky bit
    "rm -rf build",
    "rm /tmp/kesi-test.log",
    "find /tmp -name '*.tmp' -delete",  # the seed's red line is / and home, not /tmp
    "find . -name '*.pyc' -delete",
    "find build -delete",
    "cp /etc/hosts hosts.copy",  # reading a system file is not the red line
    "sed -n 1p /etc/hosts",
    "modinfo ext4",
    "lsmod",
    "mkdir -p build/usr/bin && rm -rf build/usr",
    "tee out.txt",
    "kmutil showloaded",
]


@pytest.mark.parametrize("command", REVERSIBLE)
def test_close_but_reversible_is_asked(layout: Layout, command: str) -> None:
    verdict = classify(command, layout.root, layout.home)
    assert verdict.kind == "ask", verdict.reason


def test_a_workspace_under_usr_is_not_a_system_folder(tmp_path: Layout) -> None:
    """Containers often keep the project in /usr/src/app: its own files are not the system's."""
    from pathlib import Path

    root = Path("/usr/src/app")
    home = Path("/root")
    assert classify("rm -rf build", root, home).kind == "ask"
    assert classify("rm -rf /usr/src/app/build", root, home).kind == "ask"
    assert classify("echo x > notes.txt", root, home).kind == "ask"
    assert classify("rm /usr/bin/python3", root, home).kind == "deny"


@pytest.mark.parametrize(
    ("command", "reason"),
    [
        ("SUDO ls", "不允許提權指令 SUDO"),
        ("dd of=/dev/sda", "這個指令會直接寫入磁碟裝置"),
        ("mkfs.ext4 x", "這個指令會建立檔案系統或重新分割磁碟，上面的資料會被清掉"),
        ("insmod x.ko", "不允許載入或卸載核心模組：insmod"),
        ("chmod u+s x", "不允許設定 setuid／setgid 位元或檔案權能：chmod"),
        ("rm /etc/passwd", "這個指令會刪掉或覆寫系統檔案"),
    ],
)
def test_reasons_are_in_the_locale(layout: Layout, command: str, reason: str) -> None:
    assert classify(command, layout.root, layout.home, locale="zh-TW").reason == reason
