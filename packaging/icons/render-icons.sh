#!/bin/sh
# Renders resources/icons/streamscope.svg into the committed raster icons:
# PNGs for the freedesktop hicolor theme, the Windows .ico and the macOS .icns.
# Needs rsvg-convert (librsvg2-bin), convert (imagemagick) and png2icns (icnsutils).
# Run it after editing the SVG and commit the results; builds never run it.
set -eu
cd "$(dirname "$0")/../../resources/icons"
for size in 16 24 32 48 64 128 256 512; do
    rsvg-convert -w "$size" -h "$size" streamscope.svg -o "streamscope-$size.png"
done
# ImageMagick's PNG writer stores a timestamp; -strip keeps the .ico reproducible.
convert streamscope-16.png streamscope-24.png streamscope-32.png streamscope-48.png \
        streamscope-64.png streamscope-128.png streamscope-256.png -strip streamscope.ico
png2icns streamscope.icns streamscope-16.png streamscope-32.png streamscope-48.png \
         streamscope-128.png streamscope-256.png streamscope-512.png >/dev/null
