#!/usr/bin/env bash
# The end-to-end tests drive Debian's Chromium. Install it when it is missing and we can;
# otherwise stop with a message that says how (never skip the browser tests silently).
set -euo pipefail
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then exit 0; fi
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = "0" ]; then
  echo "Chromium not found at $CHROMIUM: installing Debian's chromium package..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  [ -x "$CHROMIUM" ] && exit 0
fi
echo "The end-to-end tests need Chromium at $CHROMIUM." >&2
echo "Install it with: sudo apt-get install -y chromium   (or set CHROMIUM_PATH to a Chromium binary)" >&2
exit 1
