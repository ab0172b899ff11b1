#!/usr/bin/env bash
# Builds the web app and the server into .build/NAME/{web,server}, beside the regular dist folders,
# so that several builds and browser runs can go on at once:
#   scripts/build-aside.sh mine && E2E_DIST=.build/mine E2E_PORT=3150 npx playwright test e2e/x.spec.ts
set -euo pipefail
name="${1:?usage: scripts/build-aside.sh NAME}"
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/.build/$name"
mkdir -p "$out"
(cd "$root/packages/web" && npx vite build --outDir "$out/web" --emptyOutDir --logLevel warn)
(cd "$root/packages/server" && OUT_DIR="../../.build/$name/server" node build.mjs)
echo "built into $out"
