"""The pinned benchmark corpus: real, asyncio-heavy packages from PyPI.

``ensure_corpus()`` downloads each pinned release once (a wheel where there is
one, else the sdist) into a cache, unpacks only its ``.py`` files into
``<cache>/<name>/`` and returns the sorted list of those files.  The fuzz and
sweep tests import it (with ``benchmarks`` on ``sys.path``), so keep its name
and signature stable.

Run ``python benchmarks/corpus.py`` to fetch the corpus and print files and
lines per package.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path, PurePosixPath
from typing import Dict, List, Optional, Sequence, Tuple

REPO_ROOT = Path(__file__).resolve().parents[1]

# Pinned releases, NAME==VERSION.  Together about 1.26 million lines of Python
# (wheel contents, counted with ``python benchmarks/corpus.py``).  Change a pin
# only together with the table in docs/performance.md.
CORPUS: Tuple[str, ...] = (
    "aiobotocore==3.10.0",
    "aiogram==3.31.0",
    "aiohttp==3.14.5",
    "aiokafka==0.14.0",
    "anyio==4.16.0",
    "asyncpg==0.32.0",
    "discord.py==2.7.1",
    "disnake==2.12.2",
    "distributed==2026.8.0",
    "hikari==2.7.0",
    "httpx==0.28.1",
    "hypercorn==0.18.0",
    "ipykernel==7.4.0",
    "jupyter_server==2.21.1",
    "motor==3.7.1",
    "nats-py==2.16.0",
    "prefect==3.9.1",
    "pymodbus==3.16.1",
    "python-telegram-bot==22.8",
    "quart==0.22.0",
    "redis==8.1.0",
    "sanic==25.12.1",
    "starlette==1.10.0",
    "telethon==1.45.0",
    "textual==8.2.8",
    "tornado==6.6.1",
    "uvicorn==0.54.0",
    "websockets==17.4",
)

_MARKER = ".complete"  # written last into a package folder; holds the pin
_DOWNLOADS = "_downloads"


def _split(pin: str) -> Tuple[str, str]:
    name, _, version = pin.partition("==")
    if not name or not version:
        raise ValueError(f"corpus pin {pin!r} is not NAME==VERSION")
    return name, version


def folder_name(pin: str) -> str:
    """The folder a pin unpacks into: its normalised project name."""
    name, _ = _split(pin)
    return name.lower().replace("-", "_").replace(".", "_")


def _resolve(cache_dir: Path) -> Path:
    # A relative cache is taken relative to the repository root, so that it lands
    # in the git-ignored .bench/ whatever the working directory of the caller.
    return cache_dir if cache_dir.is_absolute() else REPO_ROOT / cache_dir


def _pip_download(pin: str, dest: Path, sdist: bool) -> subprocess.CompletedProcess:  # type: ignore[type-arg]
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--disable-pip-version-check",
           "--quiet", "--dest", str(dest)]
    if sdist:
        cmd += ["--no-binary", ":all:"]
    else:
        cmd += ["--no-binary", ":none:", "--only-binary", ":all:"]
    cmd.append(pin)
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def _archive(dest: Path) -> Optional[Path]:
    for pattern in ("*.whl", "*.tar.gz", "*.tgz", "*.tar.bz2", "*.zip"):
        found = sorted(dest.glob(pattern))
        if found:
            return found[0]
    return None


def _download(pin: str, downloads: Path) -> Path:
    dest = downloads / folder_name(pin)
    archive = _archive(dest) if dest.is_dir() else None
    if archive is not None:
        return archive
    dest.mkdir(parents=True, exist_ok=True)
    wheel = _pip_download(pin, dest, sdist=False)
    archive = _archive(dest)
    if archive is None:
        sdist = _pip_download(pin, dest, sdist=True)
        archive = _archive(dest)
        if archive is None:
            raise RuntimeError(
                f"could not download {pin}:\n--- wheel ---\n{wheel.stdout}\n--- sdist ---\n{sdist.stdout}"
            )
    return archive


def _safe_relative(member: str, strip_top: bool) -> Optional[PurePosixPath]:
    path = PurePosixPath(member)
    parts = path.parts
    if strip_top:
        parts = parts[1:]
    if not parts or path.is_absolute() or any(p in ("", ".", "..") for p in parts):
        return None
    return PurePosixPath(*parts)


def _unpack(archive: Path, target: Path) -> None:
    """Write the .py files of a wheel or sdist into target (which must not exist)."""
    name = archive.name
    members: List[Tuple[PurePosixPath, bytes]] = []
    if name.endswith(".whl") or name.endswith(".zip"):
        strip = not name.endswith(".whl")  # an sdist zip has one top folder
        with zipfile.ZipFile(archive) as zf:
            for info in zf.infolist():
                if info.is_dir() or not info.filename.endswith(".py"):
                    continue
                rel = _safe_relative(info.filename, strip)
                if rel is not None:
                    members.append((rel, zf.read(info)))
    else:
        with tarfile.open(archive) as tf:
            for tinfo in tf.getmembers():
                if not tinfo.isfile() or not tinfo.name.endswith(".py"):
                    continue
                rel = _safe_relative(tinfo.name, strip_top=True)
                fh = tf.extractfile(tinfo)
                if rel is not None and fh is not None:
                    members.append((rel, fh.read()))
    for rel, data in members:
        out = target.joinpath(*rel.parts)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(data)


def _ready(folder: Path, pin: str) -> bool:
    marker = folder / _MARKER
    return marker.is_file() and marker.read_text().strip() == pin


def ensure_corpus(cache_dir: Path = Path(".bench/corpus")) -> List[Path]:
    """Download and unpack the pinned corpus (once) and return its .py files, sorted.

    A relative ``cache_dir`` is relative to the repository root.  Packages already
    unpacked for the same pin are skipped; the unpacking of each package is
    atomic (a temporary folder renamed into place), so an interrupted run leaves
    nothing half-done behind.
    """
    root = _resolve(Path(cache_dir))
    root.mkdir(parents=True, exist_ok=True)
    downloads = root / _DOWNLOADS
    files: List[Path] = []
    for pin in CORPUS:
        folder = root / folder_name(pin)
        if not _ready(folder, pin):
            archive = _download(pin, downloads)
            tmp = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=root))
            try:
                _unpack(archive, tmp)
                (tmp / _MARKER).write_text(pin + "\n")
                if folder.exists():
                    shutil.rmtree(folder)
                try:
                    os.replace(tmp, folder)
                except OSError:
                    # Another process got there first with the same pin: use its copy.
                    if not _ready(folder, pin):
                        raise
            finally:
                if tmp.exists():
                    shutil.rmtree(tmp, ignore_errors=True)
        files.extend(p for p in folder.rglob("*.py") if p.is_file())
    return sorted(files)


def package_of(path: Path, cache_dir: Path = Path(".bench/corpus")) -> str:
    """The corpus folder (normalised package name) a corpus file belongs to."""
    return path.resolve().relative_to(_resolve(Path(cache_dir)).resolve()).parts[0]


def count_lines(data: bytes) -> int:
    """Lines as ``wc -l`` would count them, plus a last line without a newline."""
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


def summary(files: Sequence[Path], cache_dir: Path = Path(".bench/corpus")) -> Dict[str, Tuple[int, int]]:
    """Per corpus folder: (files, lines)."""
    out: Dict[str, Tuple[int, int]] = {folder_name(pin): (0, 0) for pin in CORPUS}
    for path in files:
        pkg = package_of(path, cache_dir)
        n_files, n_lines = out.get(pkg, (0, 0))
        out[pkg] = (n_files + 1, n_lines + count_lines(path.read_bytes()))
    return out


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache-dir", type=Path, default=Path(".bench/corpus"),
                        help="cache folder (relative: to the repository root)")
    args = parser.parse_args(argv)
    files = ensure_corpus(args.cache_dir)
    table = summary(files, args.cache_dir)
    print(f"{'package':<28} {'files':>7} {'lines':>10}")
    total_files = total_lines = 0
    for pin in CORPUS:
        n_files, n_lines = table[folder_name(pin)]
        total_files += n_files
        total_lines += n_lines
        print(f"{pin:<28} {n_files:>7} {n_lines:>10,}")
    print(f"{'total':<28} {total_files:>7} {total_lines:>10,}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
