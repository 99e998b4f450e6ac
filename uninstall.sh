#!/usr/bin/env bash
# Remove what install.sh installed.
#
#   sudo ./uninstall.sh            stop and remove the service and the app; keep the saved games
#                                  (/var/lib/dice-companion), the configuration and the user
#   sudo ./uninstall.sh --purge    also delete the saved games, the configuration and the user
#   ./uninstall.sh --dry-run       print every change it would make, change nothing
#
# Apt packages stay (other software may use them). Safe to run again.
set -euo pipefail

PREFIX="${DC_PREFIX:-/opt/dice-companion}"
CONFIG_DIR="${DC_CONFIG_DIR:-/etc/dice-companion}"
UNIT_DIR="${DC_UNIT_DIR:-/etc/systemd/system}"
STATE_DIR=/var/lib/dice-companion
CACHE_DIR=/var/cache/dice-companion
SERVICE=dice-companion.service
USER_NAME=dice-companion

DRY_RUN=0
PURGE=0
for arg in "$@"; do
    case "$arg" in
        --dry-run) DRY_RUN=1 ;;
        --purge) PURGE=1 ;;
        -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
        *) echo "uninstall.sh: unknown option $arg (see --help)" >&2; exit 2 ;;
    esac
done

say() { printf '==> %s\n' "$*"; }
run() {
    if [ "$DRY_RUN" = 1 ]; then
        printf '+'; printf ' %q' "$@"; printf '\n'
    else
        "$@"
    fi
}

[ "$DRY_RUN" = 1 ] || [ "$(id -u)" = 0 ] || { echo "uninstall.sh: run it as root: sudo $0 $*" >&2; exit 1; }

if [ -f "$UNIT_DIR/$SERVICE" ]; then
    say "service: stopping and removing"
    run systemctl disable --now "$SERVICE"
    run rm -f "$UNIT_DIR/$SERVICE"
    run systemctl daemon-reload
    run systemctl reset-failed "$SERVICE"
else
    say "service: not installed"
fi

if [ -d "$PREFIX" ]; then
    say "app: removing $PREFIX"
    run rm -rf "$PREFIX"
else
    say "app: not installed"
fi

if [ "$PURGE" = 1 ]; then
    say "purge: saved games, cache, configuration and user"
    run rm -rf "$STATE_DIR" "$CACHE_DIR" "$CONFIG_DIR"
    if getent passwd "$USER_NAME" >/dev/null; then
        run userdel "$USER_NAME"
    fi
else
    say "kept: saved games in $STATE_DIR, configuration in $CONFIG_DIR, user $USER_NAME (--purge removes them)"
fi
if [ "$DRY_RUN" = 1 ]; then
    say "dry run: nothing was changed"
fi
