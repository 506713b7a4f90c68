"""Run-logs zips as GitHub serves them, read without extracting and with bomb limits.

Layout: top-level `N_<job>.txt` per job, and `<job>/N_<step>.txt` per step (names sanitized and
truncated; step files may be missing). One job log per top-level file; a job with only step files
is read as its step files concatenated in step order.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, BinaryIO

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

_NUM = re.compile(r"^(\d+)_(.*)\.txt$")


@dataclass(frozen=True, slots=True)
class ZipLimits:
    max_entries: int = 2000
    max_total_bytes: int = 4 << 30  # uncompressed, counted while reading
    max_ratio: int = 200  # uncompressed/compressed, enforced past the first 8 MiB of a member
    max_compressed_bytes: int = 1 << 30


class _Capped(io.RawIOBase):
    """Counts decompressed bytes as they are read and stops a zip bomb with one line."""

    def __init__(
        self,
        inner: IO[bytes],
        compressed: int,
        where: str,
        limits: ZipLimits,
        err: Callable[[str], Exception],
    ) -> None:
        self._inner, self._compressed, self._where = inner, max(compressed, 1), where
        self._limits, self._err, self._seen = limits, err, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buf: WriteableBuffer) -> int:
        # the caller's buffer as bytes (BufferedReader passes a memoryview; typing says Buffer)
        with memoryview(buf) as view:
            data = self._inner.read(len(view))
            n = len(data)
            view[:n] = data
        self._seen += n
        lim = self._limits
        if self._seen > lim.max_total_bytes:
            raise self._err(f"{self._where}: more than {lim.max_total_bytes} bytes uncompressed")
        if self._seen > (8 << 20) and self._seen > lim.max_ratio * self._compressed:
            raise self._err(
                f"{self._where}: compression ratio above {lim.max_ratio}:1 (zip bomb?), stopped"
            )
        return n

    def close(self) -> None:
        self._inner.close()
        super().close()


def _member_opener(
    path: str, names: list[str], where: str, limits: ZipLimits, err: Callable[[str], Exception]
) -> Callable[[], BinaryIO]:
    def opener() -> BinaryIO:
        zf = zipfile.ZipFile(path)
        streams: list[_Capped] = []
        for name in names:
            info = zf.getinfo(name)
            src = f"{where}!{name}"
            streams.append(_Capped(zf.open(info), info.compress_size, src, limits, err))
        return io.BufferedReader(_Concat(streams, zf), 1 << 20)

    return opener


class _Concat(io.RawIOBase):
    def __init__(self, streams: list[_Capped], zf: zipfile.ZipFile) -> None:
        self._streams, self._zf = streams, zf

    def readable(self) -> bool:
        return True

    def readinto(self, buf: WriteableBuffer) -> int:
        while self._streams:
            n = self._streams[0].readinto(buf)
            if n:
                return n
            self._streams.pop(0).close()
        return 0

    def close(self) -> None:
        for s in self._streams:
            s.close()
        self._zf.close()
        super().close()


def zip_jobs(
    path: str, where: str, limits: ZipLimits, err: Callable[[str], Exception]
) -> list[tuple[str, str, Callable[[], BinaryIO]]]:
    """(source, job name, opener) for each job in the zip, in job order."""
    try:
        with zipfile.ZipFile(path) as zf:
            infos = zf.infolist()
    except (zipfile.BadZipFile, OSError, EOFError) as exc:
        raise err(f"{where}: corrupt or truncated zip: {exc}") from None
    if len(infos) > limits.max_entries:
        raise err(f"{where}: {len(infos)} zip entries, more than {limits.max_entries}")
    if sum(i.compress_size for i in infos) > limits.max_compressed_bytes:
        raise err(f"{where}: more than {limits.max_compressed_bytes} compressed bytes")
    top: list[tuple[int, str, str]] = []
    steps: dict[str, list[tuple[int, str]]] = {}
    for info in infos:
        if info.is_dir():
            continue
        parts = info.filename.split("/")
        if len(parts) == 1:
            m = _NUM.match(parts[0])
            if m:
                top.append((int(m.group(1)), m.group(2), info.filename))
            elif parts[0].endswith(".txt"):
                top.append((1 << 30, parts[0][:-4], info.filename))
        elif len(parts) == 2 and parts[1].endswith(".txt"):
            m = _NUM.match(parts[1])
            steps.setdefault(parts[0], []).append(
                (int(m.group(1)) if m else 1 << 30, info.filename)
            )
    out = []
    covered = set()
    for _, name, member in sorted(top):
        covered.add(name)
        out.append((f"{where}!{member}", name, _member_opener(path, [member], where, limits, err)))
    for job, files in steps.items():
        if job in covered or any(job.startswith(c) or c.startswith(job) for c in covered):
            continue
        members = [f for _, f in sorted(files)]
        out.append((f"{where}!{job}/", job, _member_opener(path, members, where, limits, err)))
    return out
