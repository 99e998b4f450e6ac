#!/usr/bin/env bash
# Install Dice Companion as a kiosk service on Raspberry Pi OS (Bookworm or later), from this checkout.
#
#   sudo ./install.sh              install or upgrade, enable and (re)start the service
#   sudo ./install.sh --no-start   install and enable, but do not start now
#   ./install.sh --dry-run         print every change it would make, change nothing
#   sudo ./install.sh --console-boot   also boot to the console (no desktop) so the app owns the display
#
# Safe to run again: every step checks first. What it does: apt packages (python3-picamera2 and the
# libraries the app needs), the system user dice-companion in the video, render, input and gpio
# groups, a venv in /opt/dice-companion/venv with --system-site-packages (so picamera2, libcamera and
# lgpio come from apt) built by that user, not root, from the versions pinned in constraints.txt,
# /etc/dice-companion/config.toml (only if absent), the systemd unit.
# Undo it with ./uninstall.sh.
set -euo pipefail

SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PREFIX="${DC_PREFIX:-/opt/dice-companion}"
CONFIG_DIR="${DC_CONFIG_DIR:-/etc/dice-companion}"
UNIT_DIR="${DC_UNIT_DIR:-/etc/systemd/system}"
OS_RELEASE="${DC_OS_RELEASE:-/etc/os-release}"
SERVICE=dice-companion.service
USER_NAME=dice-companion
GROUPS_WANTED=(video render input gpio)
APT_PACKAGES=(python3 python3-venv python3-pip python3-numpy python3-lgpio
              libgbm1 libdrm2 libegl1 libgles2 libasound2 fonts-dejavu-core)
APT_OPTIONAL=(python3-picamera2)  # Raspberry Pi OS only; elsewhere the app uses a webcam or simulated dice

DRY_RUN=0
START=1
CONSOLE_BOOT=0
for arg in "$@"; do
    case "$arg" in
        --dry-run) DRY_RUN=1 ;;
        --no-start) START=0 ;;
        --console-boot) CONSOLE_BOOT=1 ;;
        -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
        *) echo "install.sh: unknown option $arg (see --help)" >&2; exit 2 ;;
    esac
done

say() { printf '==> %s\n' "$*"; }
warn() { printf 'install.sh: warning: %s\n' "$*" >&2; }
die() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }
# Every change goes through run: in --dry-run it is printed instead.
run() {
    if [ "$DRY_RUN" = 1 ]; then
        printf '+'; printf ' %q' "$@"; printf '\n'
    else
        "$@"
    fi
}

check_system() {
    [ "$DRY_RUN" = 1 ] || [ "$(id -u)" = 0 ] || die "run it as root: sudo $0 $*"
    [ -r "$OS_RELEASE" ] || die "$OS_RELEASE is missing: this is not Raspberry Pi OS or Debian"
    local id version
    # shellcheck source=/dev/null
    id="$(. "$OS_RELEASE" && echo "${ID:-}")"
    # shellcheck source=/dev/null
    version="$(. "$OS_RELEASE" && echo "${VERSION_ID:-0}")"
    case "$id" in
        raspbian|debian) ;;
        *) die "this installer is for Raspberry Pi OS (Debian based), not '$id'" ;;
    esac
    [ "${version%%.*}" -ge 12 ] 2>/dev/null \
        || die "Raspberry Pi OS Bookworm (12) or later is needed; this is version '$version'"
    if [ ! -f "$SRC/pyproject.toml" ] || [ ! -f "$SRC/systemd/$SERVICE" ]; then
        die "run it from a Dice Companion checkout ($SRC has no pyproject.toml)"
    fi
}

install_packages() {
    local missing=() pkg
    for pkg in "${APT_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" || missing+=("$pkg")
    done
    for pkg in "${APT_OPTIONAL[@]}"; do
        if dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed"; then
            continue
        elif apt-cache show "$pkg" >/dev/null 2>&1; then
            missing+=("$pkg")
        else
            warn "$pkg is not in the apt sources (not Raspberry Pi OS?): no Pi camera, webcam or simulated dice only"
        fi
    done
    if [ "${#missing[@]}" -eq 0 ]; then
        say "apt packages: all present"
        return
    fi
    say "apt packages: installing ${missing[*]}"
    run apt-get update
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
}

install_user() {
    if getent passwd "$USER_NAME" >/dev/null; then
        say "user $USER_NAME: exists"
    else
        say "user $USER_NAME: creating"
        run useradd --system --user-group --home-dir /var/lib/dice-companion --no-create-home \
            --shell /usr/sbin/nologin --comment "Dice Companion kiosk" "$USER_NAME"
    fi
    local group
    for group in "${GROUPS_WANTED[@]}"; do
        if ! getent group "$group" >/dev/null; then
            warn "group $group does not exist on this system: skipped"
        elif id -nG "$USER_NAME" 2>/dev/null | tr ' ' '\n' | grep -qx "$group"; then
            say "user $USER_NAME: already in $group"
        else
            run usermod --append --groups "$group" "$USER_NAME"
        fi
    done
}

# Runs a command as the service user: pip and the build code of every package it installs never run
# as root. The service cannot change what it installs (ProtectSystem=strict makes /opt read-only).
as_user() {
    run runuser -u "$USER_NAME" -- env HOME="$PREFIX" PIP_NO_CACHE_DIR=1 "$@"
}

owned_by_user() {
    [ "$(stat -c %U "$1" 2>/dev/null)" = "$USER_NAME" ]
}

copy_source() {
    # The checkout may be in a home directory the service user cannot read: copy it to $1 as that user.
    if [ "$DRY_RUN" = 1 ]; then
        printf '+ tar -C %q --exclude=./.venv --exclude=./.git -cf - . | runuser -u %q -- tar -C %q -xf -\n' \
            "$SRC" "$USER_NAME" "$1"
    else
        tar -C "$SRC" --exclude=./.venv --exclude=./.git -cf - . | runuser -u "$USER_NAME" -- tar -C "$1" -xf -
    fi
}

install_app() {
    local venv="$PREFIX/venv" src="$PREFIX/src"
    if ! owned_by_user "$PREFIX"; then
        say "$PREFIX: making it the service user's"
        run install -d -o "$USER_NAME" -g "$USER_NAME" -m 0755 "$PREFIX"
    fi
    if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
            && grep -qx 'include-system-site-packages = true' "$venv/pyvenv.cfg" && owned_by_user "$venv"; then
        say "venv $venv: exists"
    else
        say "venv $venv: creating as $USER_NAME (with the system's site packages: picamera2, libcamera, lgpio)"
        run rm -rf "$venv"
        as_user python3 -m venv --system-site-packages "$venv"
    fi
    say "app: installing $SRC into $venv as $USER_NAME, versions pinned by constraints.txt"
    run rm -rf "$src"
    run install -d -o "$USER_NAME" -g "$USER_NAME" -m 0755 "$src"
    copy_source "$src"
    # only-if-needed leaves the other apt packages of the system site alone.
    as_user "$venv/bin/pip" install --quiet --disable-pip-version-check --upgrade-strategy only-if-needed \
        --constraint "$src/constraints.txt" "$src"
}

install_config() {
    if [ -f "$CONFIG_DIR/config.toml" ]; then
        say "config $CONFIG_DIR/config.toml: kept as it is"
    else
        say "config $CONFIG_DIR/config.toml: installing the defaults"
        run install -D -m 0644 "$SRC/hardware/default-config.toml" "$CONFIG_DIR/config.toml"
    fi
}

install_service() {
    if cmp -s "$SRC/systemd/$SERVICE" "$UNIT_DIR/$SERVICE"; then
        say "unit $UNIT_DIR/$SERVICE: up to date"
    else
        say "unit $UNIT_DIR/$SERVICE: installing"
        run install -D -m 0644 "$SRC/systemd/$SERVICE" "$UNIT_DIR/$SERVICE"
        run systemctl daemon-reload
    fi
    run systemctl enable "$SERVICE"
    if [ "$CONSOLE_BOOT" = 1 ]; then
        run systemctl set-default multi-user.target
    elif [ "$(systemctl get-default 2>/dev/null || true)" = graphical.target ]; then
        warn "the desktop starts at boot and holds the display; use --console-boot so the app gets it"
    fi
    if [ "$START" = 1 ]; then
        say "service: (re)starting"
        run systemctl restart "$SERVICE"
    fi
}

check_system "$@"
install_packages
install_user
install_app
install_config
install_service
if [ "$DRY_RUN" = 1 ]; then
    say "dry run: nothing was changed"
else
    say "done: journalctl -u dice-companion -f shows the log; ./uninstall.sh removes it"
fi
