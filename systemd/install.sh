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
systemctl enable companion

# Check the result before the service holds the camera and the pins: as the service's user,
# with its folders (companion doctor prints a fix for each problem).
problems=0
systemctl stop companion 2>/dev/null || true
install -d -o companion -g companion -m 0700 /var/lib/companion
runuser -u companion -- env LG_WD=/tmp STATE_DIRECTORY=/var/lib/companion \
  "$dest/.venv/bin/companion" doctor --config /etc/companion/config.toml --skip service || problems=1

systemctl start companion
systemctl --no-pager status companion || true
# And once it runs: the service is up and answers on its port.
sleep 5
"$dest/.venv/bin/companion" doctor --config /etc/companion/config.toml --data-dir /var/lib/companion \
  --skip camera --skip pads || problems=1
if [ "$problems" != 0 ]; then
  echo "Installed, but companion doctor found problems (FAIL above): fix them, then: sudo systemctl restart companion" >&2
fi
exit "$problems"
