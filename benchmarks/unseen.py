"""The precision measurement of docs/precision.md: asyncio packages that are not in
the benchmark corpus, with every rule on.

``python benchmarks/unseen.py`` downloads each pinned wheel once (``pip download
--no-deps``) into ``.bench/unseen/``, unpacks its ``.py`` files and runs the
``flake8-taskref`` command on them (``--isolated --extend-select TRF006
--disable-noqa``), then prints every finding and the count per rule and package.
Reading the findings and the spawn sites is the person's part.
"""
from __future__ import annotations

import argparse
import collections
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import List

REPO_ROOT = Path(__file__).resolve().parents[1]
CACHE = REPO_ROOT / ".bench" / "unseen"

# Read in full (findings and spawn sites).
READ: tuple = (
    "aio-pika==10.2.1", "aiocoap==0.4.17", "aioesphomeapi==46.23.0", "aiojobs==1.4.0",
    "aiormq==7.2.4", "aiosqlite==0.22.1", "aiostream==0.8.1", "arq==0.28.0",
    "asyncssh==2.24.1", "bleak==3.1.0", "grpclib==0.4.9", "kopf==1.45.2",
    "python-engineio==4.15.1", "python-socketio==5.18.1", "slixmpp==1.17.0", "zeroconf==0.154.0",
)
# Findings read, spawn sites skimmed.
SKIMMED: tuple = (
    "aiocache==0.12.3", "aiodocker==0.27.0", "aiomqtt==2.5.1", "aioquic==1.7.2",
    "aiortc==1.16.0", "janus==2.0.0", "mode-streaming==0.7.1", "pyee==13.0.1",
)


def _folder(pin: str) -> Path:
    return CACHE / pin.split("==")[0].lower().replace("-", "_")


def fetch(pin: str) -> Path:
    """Download and unpack one pinned wheel (once); return its folder."""
    folder = _folder(pin)
    if (folder / ".complete").exists():
        return folder
    downloads = CACHE / "_downloads"
    downloads.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:",
                    "--quiet", "--dest", str(downloads), pin], check=True, timeout=600)
    stem = pin.split("==")[0].lower().replace("-", "_")
    version = pin.split("==")[1]
    wheels = [w for w in downloads.glob("*.whl")
              if w.name.lower().startswith(f"{stem}-{version}-")]
    if not wheels:
        raise SystemExit(f"no wheel for {pin}")
    with zipfile.ZipFile(wheels[0]) as wheel:
        for name in wheel.namelist():
            if name.endswith(".py") and ".dist-info" not in name:
                wheel.extract(name, folder)
    (folder / ".complete").write_text(pin + "\n")
    return folder


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--read-only", action="store_true", help="only the packages read in full")
    args = parser.parse_args(argv)
    pins = READ if args.read_only else READ + SKIMMED
    folders = [fetch(pin) for pin in pins]
    proc = subprocess.run(
        [sys.executable, "-m", "flake8_taskref", "--isolated", "--extend-select", "TRF006",
         "--disable-noqa", *[folder.name for folder in folders]],
        cwd=CACHE, capture_output=True, text=True,
    )
    if proc.returncode not in (0, 1):
        sys.stderr.write(proc.stderr)
        return proc.returncode
    per_rule: "collections.Counter[str]" = collections.Counter()
    per_package: "collections.Counter[str]" = collections.Counter()
    for row in proc.stdout.splitlines():
        print(row)
        per_rule[row.split()[1]] += 1
        per_package[row.split("/")[0]] += 1
    print("per rule:", dict(sorted(per_rule.items())))
    print("per package:", dict(sorted(per_package.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
