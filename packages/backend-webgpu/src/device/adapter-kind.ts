const softwareNames = /swiftshader|llvmpipe|lavapipe|softpipe|\bwarp\b|microsoft basic render|software/i;

/**
 * True for a software or fallback adapter (SwiftShader, llvmpipe, WARP): one that runs the
 * shaders on the CPU. Uses `info.isFallbackAdapter` where the implementation sets it and the
 * adapter's names otherwise (some implementations report SwiftShader as a normal adapter).
 */
export function isSoftwareAdapterInfo(info: GPUAdapterInfo | undefined): boolean {
  if (!info) return false;
  if (info.isFallbackAdapter === true) return true;
  return [info.vendor, info.architecture, info.device, info.description].some((name) => typeof name === 'string' && softwareNames.test(name));
}

export function isSoftwareAdapter(adapter: GPUAdapter): boolean {
  const legacy = (adapter as { isFallbackAdapter?: boolean }).isFallbackAdapter;
  return legacy === true || isSoftwareAdapterInfo(adapter.info);
}

/** A one-line description: `SwiftShader driver 5.0.0 (google swiftshader, software)`. */
export function describeAdapterInfo(info: GPUAdapterInfo | undefined): string {
  if (!info) return 'unknown adapter';
  const names = [info.vendor, info.architecture].filter((name) => typeof name === 'string' && name.length > 0).join(' ');
  const title = info.description || info.device || names || 'unnamed adapter';
  const detail = [names && names !== title ? names : '', isSoftwareAdapterInfo(info) ? 'software' : 'hardware'].filter(Boolean).join(', ');
  return `${title} (${detail})`;
}
