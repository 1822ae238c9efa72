#!/usr/bin/env bash
# Installs what the project needs on a machine that has only Node 20 and npm:
# pnpm (the version pinned in package.json), then the workspace's packages.
# Safe to run again: each step is skipped when already done.
set -euo pipefail
cd "$(dirname "$0")/.."

export TURBO_TELEMETRY_DISABLED=1
pnpm_version=$(node -p "require('./package.json').packageManager.split('@')[1]")

if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null)" != "$pnpm_version" ]; then
  echo "bootstrap: installing pnpm@$pnpm_version" >&2
  npm install --global --no-fund --no-audit -E "pnpm@$pnpm_version" >&2
fi

if [ -f pnpm-lock.yaml ]; then
  pnpm install --frozen-lockfile --reporter=silent >&2
else
  pnpm install --reporter=silent >&2
fi
