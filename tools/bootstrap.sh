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

# Chromium (headless browser tests) and its SwiftShader Vulkan driver (WebGPU without a GPU).
# Only root can install them; others get a note and the tests that need them say what is missing.
if [ "${REWARD_LENS_SKIP_APT:-}" != 1 ] && { [ ! -x /usr/bin/chromium ] || [ ! -f /usr/lib/chromium/vk_swiftshader_icd.json ] || ! ldconfig -p 2>/dev/null | grep -q libvulkan.so.1; }; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "bootstrap: installing chromium and libvulkan1 (apt)" >&2
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium libvulkan1 >&2
  else
    echo "bootstrap: chromium/libvulkan1 missing and not root: browser and WebGPU tests will say so" >&2
  fi
fi

if [ -f pnpm-lock.yaml ]; then
  pnpm install --frozen-lockfile --reporter=silent >&2
else
  pnpm install --reporter=silent >&2
fi
