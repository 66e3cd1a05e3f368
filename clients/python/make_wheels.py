#!/usr/bin/env python3
"""Writes the synapsefake package's wheels: one platform wheel per binary,
with the binary inside (as ruff and esbuild ship theirs), and on request the
pure wheel and the sdist. Standard library only (zipfile, hashlib, tarfile),
Python 3.8 or later; no build backend, nothing downloaded.

Usage:

    python3 clients/python/make_wheels.py [--pure] [--sdist] [--epoch SECONDS] \\
        VERSION OUTDIR GOOS/GOARCH=BINARY...

    VERSION  the Go release tag: v1.2.3, v1.2.3-rc.1 (also -alpha.N, -beta.N)
             or v0.0.0-snapshot.COMMIT; written as its PEP 440 form: 1.2.3,
             1.2.3rc1 (1.2.3a1, 1.2.3b1), 0.0.0.dev0+COMMIT
    OUTDIR   made if missing; wheels of the same names are replaced
    GOOS/GOARCH=BINARY
             a binary built for that target (synapsefake, synapsefake.exe
             on windows), one of:
               linux/amd64    manylinux_2_17_x86_64.manylinux2014_x86_64
               linux/arm64    manylinux_2_17_aarch64.manylinux2014_aarch64
               darwin/amd64   macosx_10_12_x86_64
               darwin/arm64   macosx_11_0_arm64
               windows/amd64  win_amd64
               windows/arm64  win_arm64
    --pure   also write synapsefake-VERSION-py3-none-any.whl (no binary: it
             finds one by SYNAPSEFAKE_BIN or on PATH)
    --sdist  also write synapsefake-VERSION.tar.gz
    --epoch  the time every entry is dated (default SOURCE_DATE_EPOCH, else
             the newest source file's time), so the same inputs give the
             same bytes

Each platform wheel is synapsefake-VERSION-py3-none-TAG.whl holding the
package (synapsefake/*.py, __version__ set to VERSION), the binary at
synapsefake/bin/synapsefake[.exe] with its executable bit in the zip entry's
external_attr, and the .dist-info (METADATA, WHEEL, entry_points.txt for
the pytest plugin, top_level.txt, LICENSE, RECORD with each file's sha256).
It prints one line per file written. With the binaries scripts/release.sh
builds (the Go static binaries need no glibc, hence manylinux_2_17), e.g.:

    python3 clients/python/make_wheels.py v1.2.3 dist/python \\
        linux/amd64=out/linux_amd64/synapsefake ... windows/arm64=out/windows_arm64/synapsefake.exe
"""

import argparse
import base64
import hashlib
import io
import os
import re
import sys
import tarfile
import time
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.join(HERE, "synapsefake")
LICENSE = os.path.join(HERE, "..", "..", "LICENSE")

NAME = "synapsefake"
SUMMARY = "A fake of the v3.1 financial API for tests: its binary, control API client and pytest plugin"
REQUIRES_PYTHON = ">=3.8"
ENTRY_POINTS = "[pytest11]\nsynapsefake = synapsefake.pytest_plugin\n"
EXTRAS = {"pytest": ["pytest>=7"]}

# The wheel platform tags of the release's GOOS/GOARCH targets.
PLATFORM_TAGS = {
    "linux/amd64": "manylinux_2_17_x86_64.manylinux2014_x86_64",
    "linux/arm64": "manylinux_2_17_aarch64.manylinux2014_aarch64",
    "darwin/amd64": "macosx_10_12_x86_64",
    "darwin/arm64": "macosx_11_0_arm64",
    "windows/amd64": "win_amd64",
    "windows/arm64": "win_arm64",
}

_PRE = {"alpha": "a", "a": "a", "beta": "b", "b": "b", "rc": "rc"}


def pep440(tag):
    """The PEP 440 version of a Go release tag: v1.2.3 -> 1.2.3, v1.2.3-rc.1
    -> 1.2.3rc1 (alpha, beta -> a, b), v0.0.0-snapshot.COMMIT ->
    0.0.0.dev0+COMMIT. Any other tag raises ValueError."""
    m = re.fullmatch(r"v(\d+)\.(\d+)\.(\d+)(?:-(.+))?", tag)
    if not m:
        raise ValueError(f"version {tag!r}: want a Go tag such as v1.2.3, v1.2.3-rc.1 or v0.0.0-snapshot.COMMIT")
    base = ".".join(str(int(p)) for p in m.groups()[:3])
    pre = m.group(4)
    if pre is None:
        return base
    snap = re.fullmatch(r"snapshot(?:\.([0-9A-Za-z]+))?", pre)
    if snap:
        return base + ".dev0" + (f"+{snap.group(1).lower()}" if snap.group(1) else "")
    p = re.fullmatch(r"(alpha|beta|rc|a|b)\.?(\d+)", pre)
    if p:
        return f"{base}{_PRE[p.group(1)]}{int(p.group(2))}"
    raise ValueError(f"version {tag!r}: the pre-release {pre!r} is none of rc.N, alpha.N, beta.N, snapshot.COMMIT")


def _hash(data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"sha256={digest}"


def sources(version):
    """The package's files as (path in the wheel, bytes), __version__ set to version."""
    out = []
    for name in sorted(os.listdir(PACKAGE)):
        if not name.endswith(".py") and name != "py.typed":  # py.typed: PEP 561's marker, the types are inline
            continue
        with open(os.path.join(PACKAGE, name), "rb") as f:
            data = f.read()
        if name == "__init__.py":
            data, n = re.subn(rb'(?m)^__version__ = "[^"]*"$', f'__version__ = "{version}"'.encode(), data)
            if n != 1:
                raise SystemExit("make_wheels: synapsefake/__init__.py has no __version__ line to set")
        out.append((f"synapsefake/{name}", data))
    return out


def metadata(version):
    """The METADATA (and PKG-INFO) text."""
    with open(os.path.join(HERE, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    return (
        "Metadata-Version: 2.1\n"
        f"Name: {NAME}\n"
        f"Version: {version}\n"
        f"Summary: {SUMMARY}\n"
        "Home-page: https://github.com/synapsefake/synapsefake\n"
        "License: MIT\n"
        "Classifier: Framework :: Pytest\n"
        "Classifier: Programming Language :: Python :: 3\n"
        "Classifier: Topic :: Software Development :: Testing\n"
        f"Requires-Python: {REQUIRES_PYTHON}\n"
        + "".join(f"Provides-Extra: {e}\n" + "".join(f'Requires-Dist: {r}; extra == "{e}"\n' for r in reqs)
                  for e, reqs in EXTRAS.items()) +
        "Description-Content-Type: text/markdown\n"
        "\n" + readme
    )


def _epoch(arg):
    if arg is not None:
        return int(arg)
    if os.environ.get("SOURCE_DATE_EPOCH"):
        return int(os.environ["SOURCE_DATE_EPOCH"])
    return int(max(os.path.getmtime(os.path.join(PACKAGE, n)) for n in os.listdir(PACKAGE) if n.endswith(".py")))


def _zip_time(epoch):
    return time.gmtime(max(epoch, 315532800))[:6]  # a zip entry cannot be dated before 1980


def write_wheel(outdir, version, tag, binary=None, goos=None, epoch=0):
    """Writes one wheel and answers its path. tag is the platform tag
    ("any" for the pure wheel); binary the binary's path, for a platform wheel."""
    dist_info = f"{NAME}-{version}.dist-info"
    files = sources(version)
    if binary is not None:
        with open(binary, "rb") as f:
            files.append((f"synapsefake/bin/{'synapsefake.exe' if goos == 'windows' else 'synapsefake'}", f.read()))
    tags = "".join(f"Tag: py3-none-{t}\n" for t in tag.split("."))
    wheel = ("Wheel-Version: 1.0\nGenerator: synapsefake make_wheels.py\n"
             f"Root-Is-Purelib: {'true' if binary is None else 'false'}\n" + tags)
    files += [(f"{dist_info}/METADATA", metadata(version).encode()),
              (f"{dist_info}/WHEEL", wheel.encode()),
              (f"{dist_info}/entry_points.txt", ENTRY_POINTS.encode()),
              (f"{dist_info}/top_level.txt", b"synapsefake\n")]
    if os.path.isfile(LICENSE):
        with open(LICENSE, "rb") as f:
            files.append((f"{dist_info}/LICENSE", f.read()))
    record = "".join(f"{p},{_hash(d)},{len(d)}\n" for p, d in files) + f"{dist_info}/RECORD,,\n"
    files.append((f"{dist_info}/RECORD", record.encode()))

    # Normalized per the wheel spec: the version's local "+" stays, "-" would not.
    path = os.path.join(outdir, f"{NAME}-{version}-py3-none-{tag}.whl")
    tmp = path + ".tmp"
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files:
            info = zipfile.ZipInfo(name, _zip_time(epoch))
            executable = name.startswith("synapsefake/bin/")
            info.external_attr = (0o100755 if executable else 0o100644) << 16
            info.create_system = 3  # Unix, so that installers read the mode bits
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
    os.replace(tmp, path)
    return path


def write_sdist(outdir, version, epoch=0):
    """Writes synapsefake-VERSION.tar.gz (PKG-INFO, pyproject.toml, README.md,
    LICENSE, the package with __version__ set) and answers its path."""
    top = f"{NAME}-{version}"
    files = [("PKG-INFO", metadata(version).encode())]
    for name in ("pyproject.toml", "README.md"):
        with open(os.path.join(HERE, name), "rb") as f:
            files.append((name, f.read()))
    if os.path.isfile(LICENSE):
        with open(LICENSE, "rb") as f:
            files.append(("LICENSE", f.read()))
    files += sources(version)
    path = os.path.join(outdir, f"{top}.tar.gz")
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as t:
        for name, data in sorted(files):
            info = tarfile.TarInfo(f"{top}/{name}")
            info.size, info.mtime, info.mode = len(data), epoch, 0o644
            t.addfile(info, io.BytesIO(data))
    import gzip
    with open(path, "wb") as f, gzip.GzipFile(filename="", mode="wb", fileobj=f, mtime=epoch) as gz:
        gz.write(raw.getvalue())
    return path


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="make_wheels.py", description="Writes synapsefake's platform wheels (binary inside).",
        epilog="targets: " + ", ".join(PLATFORM_TAGS))
    ap.add_argument("--pure", action="store_true", help="also write the py3-none-any wheel (no binary)")
    ap.add_argument("--sdist", action="store_true", help="also write the sdist")
    ap.add_argument("--epoch", type=int, default=None, help="date of every entry (default $SOURCE_DATE_EPOCH)")
    ap.add_argument("version", help="a Go tag: v1.2.3, v1.2.3-rc.1, v0.0.0-snapshot.COMMIT")
    ap.add_argument("outdir")
    ap.add_argument("binaries", nargs="*", metavar="GOOS/GOARCH=BINARY")
    args = ap.parse_args(argv)
    try:
        version = pep440(args.version)
    except ValueError as err:
        ap.error(str(err))
    targets = []
    for pair in args.binaries:
        target, sep, binary = pair.partition("=")
        if not sep or target not in PLATFORM_TAGS:
            ap.error(f"{pair!r}: want GOOS/GOARCH=BINARY with GOOS/GOARCH one of {', '.join(PLATFORM_TAGS)}")
        if not os.path.isfile(binary):
            ap.error(f"{pair!r}: {binary} is not a file")
        if target in dict(targets):
            ap.error(f"{target} given twice")
        targets.append((target, binary))
    if not targets and not args.pure and not args.sdist:
        ap.error("nothing to write: give GOOS/GOARCH=BINARY pairs, --pure or --sdist")
    os.makedirs(args.outdir, exist_ok=True)
    epoch = _epoch(args.epoch)
    for target, binary in targets:
        print(write_wheel(args.outdir, version, PLATFORM_TAGS[target], binary, target.split("/")[0], epoch))
    if args.pure:
        print(write_wheel(args.outdir, version, "any", epoch=epoch))
    if args.sdist:
        print(write_sdist(args.outdir, version, epoch))
    return 0


if __name__ == "__main__":
    sys.exit(main())
