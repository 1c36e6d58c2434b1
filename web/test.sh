#!/usr/bin/env bash
# The sandbox in a browser (issue 21, R-WEB-2): builds the web folder (web/build.sh), then
# web/test.py opens it from a local server in headless Chromium (software WebGL2), checks the
# first scene is drawn, that a click and a touch on empty space spawn a body, and prints the
# step time of the 1,000-body stress scene in this browser. Screenshots go to
# ci-artifacts/web/. Exits non-zero on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."

dist="${WEB_DIST:-web/dist}"

# Debian's Chromium and its WebDriver, and Selenium and Pillow for Debian's own python3 (the
# one at /usr/bin, whatever python3 is first on PATH).
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
$sudo apt-get update -qq
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    chromium chromium-driver python3-selenium python3-pil >/dev/null

bash web/build.sh "$dist"
/usr/bin/python3 web/test.py "$dist" --bench 1000 --seconds 10 --shots ci-artifacts/web
