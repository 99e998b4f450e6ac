"""install.sh / uninstall.sh: shellcheck-clean; --dry-run changes nothing; a second run only re-enables
and restarts. The system commands are stand-ins on PATH that record any call that would change the
machine (the real install needs a Raspberry Pi OS box as root)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = [ROOT / "install.sh", ROOT / "uninstall.sh"]

# Read-only commands answer from FAKE_* variables; the others record their call in $FAKE_LOG and fail.
FAKES = {
    "getent": 'case "$1" in passwd) [[ " $FAKE_USERS " == *" $2 "* ]];;'
              ' group) [[ " $FAKE_GROUPS " == *" $2 "* ]];; esac',
    "id": 'if [ "$1" = -u ]; then echo "${FAKE_UID:-0}"; else echo "$FAKE_MEMBER_OF"; fi',
    "dpkg-query": 'p="${!#}"; [[ " $FAKE_INSTALLED " == *" $p "* ]] && echo "install ok installed"; true',
    "apt-cache": '[[ " $FAKE_AVAILABLE " == *" $2 "* ]]',
    "systemctl": 'if [ "$1" = get-default ]; then echo multi-user.target; exit 0; fi;'
                 ' echo "systemctl $*" >> "$FAKE_LOG"; exit 1',
    "stat": 'echo "${FAKE_OWNER:-root}"',
}
MUTATING = ["apt-get", "useradd", "usermod", "userdel", "install", "rm", "mkdir", "python3", "env", "runuser",
            "tar"]
AS_USER = "runuser -u dice-companion -- env HOME={prefix} PIP_NO_CACHE_DIR=1 "
GROUPS = "video render input gpio"
PACKAGES = ("python3 python3-venv python3-pip python3-numpy python3-lgpio libgbm1 libdrm2 libegl1 libgles2 "
            "libasound2 fonts-dejavu-core python3-picamera2")


@pytest.fixture
def fake(tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, body in FAKES.items():
        (bin_dir / name).write_text(f"#!/bin/bash\n{body}\n")
    for name in MUTATING:
        (bin_dir / name).write_text(f'#!/bin/bash\necho "{name} $*" >> "$FAKE_LOG"\nexit 1\n')
    for f in bin_dir.iterdir():
        f.chmod(0o755)
    os_release = tmp_path / "os-release"
    os_release.write_text('ID=debian\nVERSION_ID="12"\n')
    log = tmp_path / "calls.log"
    env = {
        "PATH": f"{bin_dir}:{os.environ['PATH']}", "FAKE_LOG": str(log), "HOME": str(tmp_path),
        "DC_PREFIX": str(tmp_path / "opt"), "DC_CONFIG_DIR": str(tmp_path / "etc"),
        "DC_UNIT_DIR": str(tmp_path / "units"), "DC_OS_RELEASE": str(os_release),
        "FAKE_USERS": "", "FAKE_GROUPS": GROUPS, "FAKE_MEMBER_OF": "", "FAKE_INSTALLED": "",
        "FAKE_AVAILABLE": "python3-picamera2",
    }
    return tmp_path, env, log


def run(script: str, env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", str(ROOT / script), *args], env=env, capture_output=True, text=True,
                          timeout=60)


def plan(out: subprocess.CompletedProcess) -> list[str]:
    return [line[2:] for line in out.stdout.splitlines() if line.startswith("+ ")]


@pytest.mark.skipif(shutil.which("shellcheck") is None,
                    reason="shellcheck is absent: apt-get install shellcheck (CI's .ci/run installs it)")
@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_shellcheck_clean(script):
    out = subprocess.run(["shellcheck", "--severity=style", str(script)], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout


def test_a_fresh_install_plans_every_step_and_dry_run_changes_nothing(fake):
    tmp, env, log = fake
    out = run("install.sh", env, "--dry-run")
    assert out.returncode == 0, out.stderr
    assert not log.exists(), f"--dry-run ran {log.read_text()}"
    steps = plan(out)
    apt = next(s for s in steps if " apt-get install " in s)
    assert apt.split()[-len(PACKAGES.split()):] == PACKAGES.split()
    assert any(s.startswith("useradd --system") and s.endswith(" dice-companion") for s in steps)
    assert [s for s in steps if s.startswith("usermod")] == [
        f"usermod --append --groups {g} dice-companion" for g in GROUPS.split()]
    as_user = AS_USER.format(prefix=f"{tmp}/opt")
    assert f"install -d -o dice-companion -g dice-companion -m 0755 {tmp}/opt" in steps
    assert f"{as_user}python3 -m venv --system-site-packages {tmp}/opt/venv" in steps  # not as root
    assert f"tar -C {ROOT} --exclude=./.venv --exclude=./.git -cf - . | runuser -u dice-companion -- " \
           f"tar -C {tmp}/opt/src -xf -" in steps
    (pip,) = [s for s in steps if "/bin/pip install" in s]
    assert pip.startswith(f"{as_user}{tmp}/opt/venv/bin/pip install") and pip.endswith(f"{tmp}/opt/src")
    assert f"--constraint {tmp}/opt/src/constraints.txt" in pip
    assert f"install -D -m 0644 {ROOT}/hardware/default-config.toml {tmp}/etc/config.toml" in steps
    assert steps[-3:] == ["systemctl daemon-reload", "systemctl enable dice-companion.service",
                          "systemctl restart dice-companion.service"]


def test_a_second_run_only_enables_and_restarts(fake):
    tmp, env, log = fake
    venv = tmp / "opt" / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").write_text("#!/bin/sh\nexit 0\n")
    (venv / "bin" / "python").chmod(0o755)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\ninclude-system-site-packages = true\n")
    (tmp / "etc").mkdir()
    (tmp / "etc" / "config.toml").write_text("[logging]\nlevel = 'debug'\n")
    (tmp / "units").mkdir()
    shutil.copy(ROOT / "systemd" / "dice-companion.service", tmp / "units")
    env |= {"FAKE_USERS": "dice-companion", "FAKE_MEMBER_OF": "dice-companion " + GROUPS,
            "FAKE_INSTALLED": PACKAGES, "FAKE_OWNER": "dice-companion"}
    out = run("install.sh", env, "--dry-run")
    assert out.returncode == 0, out.stderr
    src = tmp / "opt" / "src"
    assert plan(out) == [  # the app itself is reinstalled from the checkout (an upgrade), nothing else
        f"rm -rf {src}", f"install -d -o dice-companion -g dice-companion -m 0755 {src}",
        f"tar -C {ROOT} --exclude=./.venv --exclude=./.git -cf - . | runuser -u dice-companion -- "
        f"tar -C {src} -xf -",
        f"{AS_USER.format(prefix=tmp / 'opt')}{venv}/bin/pip install --quiet --disable-pip-version-check "
        f"--upgrade-strategy only-if-needed --constraint {src}/constraints.txt {src}",
        "systemctl enable dice-companion.service", "systemctl restart dice-companion.service"]
    assert "config.toml: kept as it is" in out.stdout and not log.exists()


def test_a_venv_root_built_is_built_again_by_the_service_user(fake):
    tmp, env, _ = fake
    venv = tmp / "opt" / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").write_text("#!/bin/sh\nexit 0\n")
    (venv / "bin" / "python").chmod(0o755)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\ninclude-system-site-packages = true\n")
    env |= {"FAKE_USERS": "dice-companion", "FAKE_OWNER": "root"}  # an older install.sh ran pip as root
    steps = plan(run("install.sh", env, "--dry-run"))
    assert f"rm -rf {venv}" in steps
    assert f"{AS_USER.format(prefix=tmp / 'opt')}python3 -m venv --system-site-packages {venv}" in steps


def test_the_constraints_pin_every_runtime_dependency_to_one_version():
    import tomllib

    pins = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, sep, version = line.partition("==")
            assert sep and version.strip(), f"not pinned: {line}"
            pins[name.strip().lower()] = version.strip()
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    for dep in deps:
        name = dep.split(">")[0].split("=")[0].split("<")[0].strip().lower()
        assert name in pins, f"{name} (pyproject.toml) has no pinned version in constraints.txt"


def test_missing_groups_and_picamera2_are_warned_not_fatal(fake):
    _, env, _ = fake
    env |= {"FAKE_GROUPS": "video", "FAKE_AVAILABLE": ""}
    out = run("install.sh", env, "--dry-run", "--no-start")
    assert out.returncode == 0, out.stderr
    assert "python3-picamera2 is not in the apt sources" in out.stderr
    assert "group gpio does not exist" in out.stderr
    assert "systemctl restart dice-companion.service" not in plan(out)


@pytest.mark.parametrize(("release", "message"), [
    ('ID=ubuntu\nVERSION_ID="24.04"\n', "not 'ubuntu'"),
    ('ID=raspbian\nVERSION_ID="11"\n', "Bookworm (12) or later is needed; this is version '11'"),
])
def test_wrong_system_is_refused_with_a_reason(fake, release, message):
    tmp, env, log = fake
    (tmp / "os-release").write_text(release)
    out = run("install.sh", env, "--dry-run")
    assert out.returncode == 1 and message in out.stderr
    assert not log.exists()


def test_uninstall_keeps_the_games_unless_purged(fake):
    tmp, env, log = fake
    (tmp / "units").mkdir()
    (tmp / "units" / "dice-companion.service").write_text("[Service]\n")
    (tmp / "opt").mkdir()
    env |= {"FAKE_USERS": "dice-companion"}
    kept = run("uninstall.sh", env, "--dry-run")
    assert kept.returncode == 0, kept.stderr
    assert plan(kept) == ["systemctl disable --now dice-companion.service",
                          f"rm -f {tmp}/units/dice-companion.service", "systemctl daemon-reload",
                          "systemctl reset-failed dice-companion.service", f"rm -rf {tmp}/opt"]
    purged = run("uninstall.sh", env, "--dry-run", "--purge")
    assert plan(purged)[-2:] == [
        f"rm -rf /var/lib/dice-companion /var/cache/dice-companion {tmp}/etc", "userdel dice-companion"]
    assert not log.exists()


def test_unknown_option_is_refused(fake):
    _, env, _ = fake
    out = run("install.sh", env, "--frobnicate")
    assert out.returncode == 2 and "unknown option --frobnicate" in out.stderr


def test_a_real_install_needs_root(fake):
    _, env, log = fake
    out = run("install.sh", {**env, "FAKE_UID": "1000"})
    assert out.returncode == 1 and "run it as root: sudo" in out.stderr
    out = run("uninstall.sh", {**env, "FAKE_UID": "1000"})
    assert out.returncode == 1 and "run it as root: sudo" in out.stderr
    assert not log.exists()
