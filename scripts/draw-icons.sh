#!/bin/sh
# The app's PNG icons (games/static/games/icon-*.png), drawn from icon.svg by Chromium:
# 192 and 512 px as drawn, and a maskable 512 px one whose felt fills the square and
# whose cards keep to the middle 80 % (the part every launcher's mask leaves).
set -eu
DIR=$(cd "$(dirname "$0")/../games/static/games" && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
sed -e 's|<rect width="512" height="512" rx="96" fill="#1f5f3a"/><rect [^>]*/>|<rect width="512" height="512" fill="#1f5f3a"/><g transform="translate(51 51) scale(.8)">|' \
    -e 's|</svg>|</g></svg>|' "$DIR/icon.svg" > "$WORK/maskable.svg"
draw() {  # draw SVG SIZE OUT
  printf '<html><body style="margin:0"><img src="file://%s" width="%s" height="%s"></body></html>' "$1" "$2" "$2" > "$WORK/page.html"
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --default-background-color=00000000 --window-size="$2,$2" --screenshot="$3" \
    "file://$WORK/page.html" 2>/dev/null
}
draw "$DIR/icon.svg" 192 "$DIR/icon-192.png"
draw "$DIR/icon.svg" 512 "$DIR/icon-512.png"
draw "$WORK/maskable.svg" 512 "$DIR/icon-maskable-512.png"
