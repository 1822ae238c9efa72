/**
 * How this repository's tests start Debian's Chromium (`/usr/bin/chromium`, never a downloaded
 * browser), as ../shared/TOOLCHAIN.md says: headless, no sandbox, nothing fetched in the
 * background. Add `--enable-unsafe-webgpu` for `navigator.gpu` (SwiftShader without a GPU).
 */
export const chromiumPath = '/usr/bin/chromium';

export const chromiumFlags = [
  '--headless',
  '--no-sandbox',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
] as const;
