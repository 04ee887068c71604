#!/usr/bin/env bash
# Refreshes translations/*.ts from the tr() strings in ui/ and app/gui/ (run it after merging
# new panels), then says how many entries still need a translation. Diff-friendly output: no
# source locations, obsolete entries dropped, contexts sorted. The English file holds only the
# plural forms ("%n layer(s)"): every other source string already is English.
# Entries marked vanished (translated strings not found in the sources) are dropped; lupdate
# revives a vanished entry whose string is back, so run this after a merge, not before it.
# Fails when lupdate reports a problem, e.g. tr() in a class without Q_OBJECT, whose strings
# would never be translated at run time.
#   LF_TS_DIR=dir      update the .ts files in dir instead (test_translations does, on copies)
#   LF_I18N_ROOT=dir   scan dir/ui and dir/app/gui instead of this checkout's (tests use fixtures)
#   LUPDATE=path       the lupdate to use (default: Qt 6's)
set -euo pipefail
checkout="$(cd "$(dirname "$0")/.." && pwd)"
dir="$(realpath "${LF_TS_DIR:-$checkout/translations}")"
lupdate="${LUPDATE:-/usr/lib/qt6/bin/lupdate}"
cd "${LF_I18N_ROOT:-$checkout}"
sources=(ui app/gui)
options=(-locations none -no-obsolete -extensions cpp,h)

log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$lupdate" "${options[@]}" "${sources[@]}" -ts "$dir/layerforge_zh_CN.ts" >"$log" 2>&1
"$lupdate" "${options[@]}" -pluralonly "${sources[@]}" -ts "$dir/layerforge_en.ts" >>"$log" 2>&1
grep -v '^Scanning directory' "$log" || true
if grep -qE '^[^ ].*:[0-9]+: ' "$log"; then
  echo "update_translations: lupdate reported problems (above); fix them in the sources" >&2
  exit 1
fi
for ts in "$dir"/layerforge_zh_CN.ts "$dir"/layerforge_en.ts; do
  n=$(grep -c 'type="unfinished"' "$ts" || true)
  echo "$ts: $n unfinished"
done
echo "Translate unfinished entries (e.g. linguist translations/layerforge_zh_CN.ts), then run"
echo "ctest -R test_translations in the build directory."
