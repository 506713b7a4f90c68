"""Read-only access to a checkout, confined to its root (docs/THREAT_MODEL.md §6).

A path the model gives is relative to the root; absolute paths, `..`, NUL and any `.git` component
are refused before touching the disk. The real path (symlinks resolved) must stay inside the root
and outside `.git/`. Only regular files are opened, with O_NONBLOCK | O_NOFOLLOW, and checked again
with fstat after opening, so a FIFO or a device never blocks or streams forever.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import IO

SCAN_CAP = 16 * 1024 * 1024
"""Bytes of one file scanned to reach a line range or to search it."""

LINE_CAP = 8 * 1024
"""Bytes of one line kept (minified files and a newline-free 1 GB file stay cheap)."""


_KERNEL_TREES = ("/proc/", "/sys/", "/dev/")


class SandboxError(Exception):
    """A path the sandbox refuses or cannot read; the message is shown to the model."""


class Sandbox:
    """The checkout at `root`, seen read-only through relative paths."""

    def __init__(self, root: str | os.PathLike[str]):
        self.root = os.path.realpath(root)
        if (self.root + "/").startswith(_KERNEL_TREES) or not os.path.isdir(self.root):
            raise SandboxError(f"checkout {root}: not a directory")

    def resolve(self, path: str | None) -> str:
        """The real path of `path` inside the root, or SandboxError saying why not."""
        rel = (path or ".").strip()
        if "\x00" in rel:
            raise SandboxError("path contains NUL")
        if rel.startswith(("/", "\\")):
            raise SandboxError(
                f"{rel}: absolute paths are not allowed; use a path relative to the checkout"
            )
        parts = [p for p in rel.replace("\\", "/").split("/") if p not in ("", ".")]
        if ".." in parts:
            raise SandboxError(f"{rel}: '..' is not allowed")
        if any(p.casefold() == ".git" for p in parts):
            raise SandboxError(f"{rel}: .git/ is not readable")
        real = os.path.realpath(os.path.join(self.root, *parts))
        inside = os.path.relpath(real, self.root)
        if real != self.root and (inside == ".." or inside.startswith(".." + os.sep)):
            raise SandboxError(f"{rel}: resolves outside the checkout (symlink)")
        if any(p.casefold() == ".git" for p in Path(inside).parts):
            raise SandboxError(f"{rel}: resolves into .git/")
        if real.startswith(_KERNEL_TREES):  # even when the checkout root is `/`
            raise SandboxError(f"{rel}: /proc, /sys and /dev are not readable")
        return real

    def relative(self, real: str) -> str:
        rel = os.path.relpath(real, self.root)
        return "." if rel == "." else rel.replace(os.sep, "/")

    def open_regular(self, path: str | None) -> tuple[int, int]:
        """An fd opened read-only on a regular file and its size; refuses FIFOs, devices, dirs."""
        real = self.resolve(path)
        try:
            st = os.stat(real)
        except OSError as exc:
            raise SandboxError(f"{path}: {exc.strerror or 'cannot stat'}") from None
        if stat.S_ISDIR(st.st_mode):
            raise SandboxError(f"{path}: is a directory (use list_files)")
        if not stat.S_ISREG(st.st_mode):
            raise SandboxError(f"{path}: not a regular file")
        try:
            fd = os.open(real, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
        except OSError as exc:
            raise SandboxError(f"{path}: {exc.strerror or 'cannot open'}") from None
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):  # swapped between stat and open
            os.close(fd)
            raise SandboxError(f"{path}: not a regular file")
        return fd, st.st_size

    def iter_lines(self, path: str | None, scan_cap: int = SCAN_CAP) -> Iterator[bytes]:
        """Raw lines of a regular file, stopping after `scan_cap` bytes; SandboxError if binary."""
        fd, _size = self.open_regular(path)
        with os.fdopen(fd, "rb") as fh:
            head = fh.peek(8192)[:8192] if hasattr(fh, "peek") else b""
            if b"\x00" in head:
                raise SandboxError(f"{path}: binary file, not shown")
            seen = 0
            while seen < scan_cap:
                line = fh.readline(LINE_CAP)
                if not line:
                    return
                seen += len(line)
                if len(line) == LINE_CAP and not line.endswith(b"\n"):
                    seen += _skip_rest_of_line(fh, scan_cap - seen)
                    line += b" [line cut at 8 KiB]\n"
                yield line

    def read_bytes(self, path: str | None, cap: int) -> bytes:
        """The first `cap` bytes of a regular text file; SandboxError if binary or refused."""
        fd, _size = self.open_regular(path)
        with os.fdopen(fd, "rb") as fh:
            data = fh.read(cap)
        if b"\x00" in data[:8192]:
            raise SandboxError(f"{path}: binary file, not shown")
        return data

    def list_dir(self, path: str | None) -> list[str]:
        """Entries of a directory: `name/` for directories, `name@` for symlinks; no `.git`."""
        real = self.resolve(path)
        if not os.path.isdir(real):
            raise SandboxError(f"{path}: not a directory")
        out = []
        with os.scandir(real) as it:
            for entry in it:
                if entry.name.casefold() == ".git":
                    continue
                if entry.is_symlink():
                    out.append(entry.name + "@")
                elif entry.is_dir(follow_symlinks=False):
                    out.append(entry.name + "/")
                elif entry.is_file(follow_symlinks=False):
                    out.append(entry.name)
        return sorted(out)

    def walk_files(self, path: str | None, max_files: int = 5000) -> Iterator[str]:
        """Relative paths of regular files under `path`, never following symlinks or `.git`."""
        top = self.resolve(path)
        if os.path.isfile(top):
            yield self.relative(top)
            return
        count = 0
        for dirpath, dirnames, filenames in os.walk(top, followlinks=False):
            dirnames[:] = sorted(d for d in dirnames if d.casefold() != ".git")
            for name in sorted(filenames):
                full = os.path.join(dirpath, name)
                if os.path.islink(full) or not os.path.isfile(full):
                    continue
                count += 1
                if count > max_files:
                    return
                yield self.relative(full)


def _skip_rest_of_line(fh: IO[bytes], budget: int) -> int:
    """Read past the rest of an overlong line (at most `budget` bytes); bytes read."""
    read = 0
    while read < budget:
        chunk = fh.readline(LINE_CAP)
        read += len(chunk)
        if not chunk or chunk.endswith(b"\n"):
            break
    return read
