#!/bin/sh
# Renders the icon to the PNG sizes the package installs. ImageMagick here has no SVG reader,
# so the drawing below is layerforge.svg's geometry at twice the scale, in ImageMagick's draw
# language; keep the two in step when changing the design.
set -e
cd "$(dirname "$0")"
DRAWING="
fill '#283593' roundrectangle 16,16 496,496 96,96
stroke '#9fa8da' stroke-width 12 stroke-linecap round
line 128,160 256,128 line 128,160 256,256 line 128,160 256,384
line 128,352 256,128 line 128,352 256,256 line 128,352 256,384
line 256,128 384,256 line 256,256 384,256 line 256,384 384,256
stroke '#1a237e' stroke-width 8 fill white
circle 128,160 128,200 circle 128,352 128,392
circle 256,128 256,168 circle 256,256 256,296 circle 256,384 256,424
fill '#ffb300' circle 384,256 384,304"
CONVERT=/usr/bin/convert
[ -x "$CONVERT" ] || CONVERT=convert
for size in 16 24 32 48 64 128 256 512; do
  "$CONVERT" -size 512x512 xc:none -draw "$DRAWING" -resize "${size}x${size}" -depth 8 "layerforge-${size}.png"
done
