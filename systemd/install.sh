#!/usr/bin/env bash
# Install Table Companion as a service on Raspberry Pi OS Bookworm. Run as root from a
# checkout of the project: sudo systemd/install.sh   (docs/install-pi.md explains each step)
set -euo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"
dest=/opt/companion

apt-get update
apt-get install -y --no-install-recommends python3-venv python3-picamera2 python3-lgpio python3-numpy

id companion >/dev/null 2>&1 || useradd --system --home-dir "$dest" --shell /usr/sbin/nologin companion
usermod -a -G gpio,video companion

mkdir -p "$dest"
rsync -a --delete --exclude .venv --exclude .git "$src"/ "$dest"/
# --system-site-packages: picamera2, libcamera and lgpio come from apt.
python3 -m venv --system-site-packages "$dest/.venv"
"$dest/.venv/bin/pip" install --quiet -c "$dest/systemd/pi-constraints.txt" "$dest"
chown -R root:root "$dest"

mkdir -p /etc/companion
[ -f /etc/companion/config.toml ] || "$dest/.venv/bin/companion" config example > /etc/companion/config.toml
"$dest/.venv/bin/companion" config check --config /etc/companion/config.toml

install -m 0644 "$dest/systemd/companion.service" /etc/systemd/system/companion.service
systemctl daemon-reload
systemctl enable --now companion
systemctl --no-pager status companion
