"""make_wheels.py: the version mapping, the wheels' contents, and that a made
wheel installs and its binary runs."""

import base64
import csv
import hashlib
import importlib.util
import io
import os
import subprocess
import sys
import zipfile

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
# make_wheels.py is beside the package, not in it: loaded from its file,
# leaving sys.path (and so which synapsefake the tests import) alone.
_spec = importlib.util.spec_from_file_location("make_wheels", os.path.join(ROOT, "make_wheels.py"))
make_wheels = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_wheels)


@pytest.mark.parametrize("tag, want", [
    ("v1.2.3", "1.2.3"),
    ("v0.10.0", "0.10.0"),
    ("v1.2.3-rc.1", "1.2.3rc1"),
    ("v1.2.3-rc2", "1.2.3rc2"),
    ("v2.0.0-beta.3", "2.0.0b3"),
    ("v2.0.0-alpha.1", "2.0.0a1"),
    ("v0.0.0-snapshot.167091c0ffee", "0.0.0.dev0+167091c0ffee"),
    ("v0.0.0-snapshot.ABC", "0.0.0.dev0+abc"),
    ("v0.0.0-snapshot", "0.0.0.dev0"),
])
def test_versions(tag, want):
    assert make_wheels.pep440(tag) == want


@pytest.mark.parametrize("tag", ["1.2.3", "v1.2", "v1.2.3-pre.1", "v1.2.3-rc", "snapshot", "v1.2.3+meta"])
def test_versions_refused(tag):
    with pytest.raises(ValueError, match="version"):
        make_wheels.pep440(tag)


def test_the_metadata_is_pyprojects():
    tomllib = pytest.importorskip("tomllib")
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        project = tomllib.load(f)["project"]
    assert project["name"] == make_wheels.NAME
    assert project["description"] == make_wheels.SUMMARY
    assert project["requires-python"] == make_wheels.REQUIRES_PYTHON
    assert project["optional-dependencies"] == make_wheels.EXTRAS
    eps = project["entry-points"]["pytest11"]
    assert make_wheels.ENTRY_POINTS == "[pytest11]\n" + "".join(f"{k} = {v}\n" for k, v in eps.items())


def _record_checks(z):
    """Every file of the wheel is in RECORD with its sha256 and size."""
    record = next(n for n in z.namelist() if n.endswith(".dist-info/RECORD"))
    rows = {r[0]: r[1:] for r in csv.reader(io.StringIO(z.read(record).decode()))}
    assert set(rows) == set(z.namelist())
    assert rows[record] == ["", ""]
    for name, (digest, size) in rows.items():
        if name == record:
            continue
        data = z.read(name)
        want = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        assert (digest, int(size)) == (want, len(data)), name


def test_every_target_gets_its_wheel(tmp_path):
    fake = tmp_path / "binary"
    fake.write_bytes(b"\x7fELF not really")
    pairs = [f"{t}={fake}" for t in make_wheels.PLATFORM_TAGS]
    assert make_wheels.main(["--pure", "--sdist", "--epoch", "1700000000", "v1.2.3-rc.1", str(tmp_path / "out")]
                            + pairs) == 0
    names = sorted(os.listdir(tmp_path / "out"))
    assert names == sorted(
        [f"synapsefake-1.2.3rc1-py3-none-{tag}.whl" for tag in [
            "manylinux_2_17_x86_64.manylinux2014_x86_64", "manylinux_2_17_aarch64.manylinux2014_aarch64",
            "macosx_10_12_x86_64", "macosx_11_0_arm64", "win_amd64", "win_arm64", "any"]]
        + ["synapsefake-1.2.3rc1.tar.gz"])
    for name in names:
        if not name.endswith(".whl"):
            continue
        with zipfile.ZipFile(tmp_path / "out" / name) as z:
            _record_checks(z)
            wheel = z.read("synapsefake-1.2.3rc1.dist-info/WHEEL").decode()
            assert b'__version__ = "1.2.3rc1"' in z.read("synapsefake/__init__.py")
            assert z.read("synapsefake/py.typed") == b""  # PEP 561: type checkers read the inline types
            assert "synapsefake = synapsefake.pytest_plugin" in z.read(
                "synapsefake-1.2.3rc1.dist-info/entry_points.txt").decode()
            bins = [i for i in z.infolist() if i.filename.startswith("synapsefake/bin/")]
            if name.endswith("-any.whl"):
                assert bins == [] and "Root-Is-Purelib: true" in wheel
                continue
            assert "Root-Is-Purelib: false" in wheel
            tag = name[len("synapsefake-1.2.3rc1-py3-none-"):-len(".whl")]
            assert [line for line in wheel.splitlines() if line.startswith("Tag:")] == [
                f"Tag: py3-none-{t}" for t in tag.split(".")]
            exe = "synapsefake.exe" if tag.startswith("win") else "synapsefake"
            assert [b.filename for b in bins] == [f"synapsefake/bin/{exe}"]
            assert (bins[0].external_attr >> 16) & 0o777 == 0o755
            assert z.read(bins[0]) == fake.read_bytes()
            assert bins[0].date_time == (2023, 11, 14, 22, 13, 20)


def test_the_same_inputs_give_the_same_bytes(tmp_path):
    fake = tmp_path / "binary"
    fake.write_bytes(b"same")
    outs = []
    for d in ("a", "b"):
        make_wheels.main(["--epoch", "0", "v1.0.0", str(tmp_path / d), f"linux/arm64={fake}"])
        outs.append((tmp_path / d / "synapsefake-1.0.0-py3-none-manylinux_2_17_aarch64.manylinux2014_aarch64.whl")
                    .read_bytes())
    assert outs[0] == outs[1]


@pytest.mark.parametrize("args, message", [
    (["v1.2.3", "out", "plan9/amd64=x"], "GOOS/GOARCH one of linux/amd64"),
    (["v1.2.3", "out", "linux/amd64"], "want GOOS/GOARCH=BINARY"),
    (["v1.2.3", "out", "linux/amd64=/no/such/binary"], "/no/such/binary is not a file"),
    (["1.2.3", "out", "--pure"], "want a Go tag such as v1.2.3"),
    (["v1.2.3", "out"], "nothing to write"),
])
def test_bad_arguments(args, message, capsys):
    with pytest.raises(SystemExit) as exit_:
        make_wheels.main(args)
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err


def _host_target():
    import platform
    machine = platform.machine().lower()
    arch = {"x86_64": "amd64", "amd64": "amd64", "aarch64": "arm64", "arm64": "arm64"}.get(machine)
    goos = {"linux": "linux", "darwin": "darwin", "win32": "windows"}.get(sys.platform)
    if not arch or not goos:
        pytest.skip(f"no wheel target for {sys.platform}/{machine}")
    return f"{goos}/{arch}"


def test_a_made_wheel_installs_and_its_binary_runs(tmp_path, real_binary):
    """The host's platform wheel, installed with pip (no index, no deps) into a
    directory: find_binary finds the binary inside it, and it runs."""
    out = tmp_path / "wheels"
    make_wheels.main(["v1.2.3", str(out), f"{_host_target()}={real_binary}"])
    (wheel,) = os.listdir(out)
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-index", "--no-deps",
                    "--disable-pip-version-check", "--target", str(target), str(out / wheel)], check=True,
                   env=dict(os.environ, PIP_ROOT_USER_ACTION="ignore"))
    env = {k: v for k, v in os.environ.items() if k != "SYNAPSEFAKE_BIN"}
    env["PYTHONPATH"] = str(target)
    env["PATH"] = str(tmp_path)  # no synapsefake on PATH
    code = ("import subprocess, synapsefake; b = synapsefake.find_binary(); print(synapsefake.__version__); "
            "print(b); print(subprocess.run([b, '-version'], capture_output=True, text=True, check=True).stdout)")
    # From tmp_path: python -c puts the working directory first on sys.path.
    got = subprocess.run([sys.executable, "-c", code], env=env, cwd=str(tmp_path), capture_output=True, text=True)
    assert got.returncode == 0, got.stderr
    version, path, output = got.stdout.split("\n", 2)
    assert version == "1.2.3"
    assert path == os.path.join(str(target), "synapsefake", "bin", "synapsefake.exe" if sys.platform == "win32"
                                else "synapsefake")
    assert "synapsefake" in output
