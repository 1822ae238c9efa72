import { ModelLoadError } from '@reward-lens/spec';
import { configLocations, parseOnnxConfigJson, type OnnxModelConfig } from '@reward-lens/onnx-backend-common';
import { isNodeRuntime } from './execution-provider.js';

export interface ModelFile {
  bytes: Uint8Array;
  /** The `config.json` beside the model, or `{}` when there is none. */
  configFromFile: OnnxModelConfig;
}

/**
 * Reads a model and the `config.json` beside it (or above its `onnx/` folder, the hub layout): an `http(s):` URL with `fetch`; otherwise a file
 * path or `file:` URL in Node, and a URL relative to the page in browsers. A missing model is a ModelLoadError
 * naming it; a missing `config.json` is not an error.
 */
export async function readModel(location: string): Promise<ModelFile> {
  const readText = async (path: string) => new TextDecoder().decode(await readBytes(path));
  const bytes = await readBytes(location).catch((error: unknown) => {
    throw new ModelLoadError(`cannot read it (${error instanceof Error ? error.message : String(error)})`, { file: location, cause: error });
  });
  for (const configPath of configLocations(location)) {
    const configText = await readText(configPath).catch(() => undefined);
    if (configText !== undefined) return { bytes, configFromFile: parseOnnxConfigJson(configText, configPath) };
  }
  return { bytes, configFromFile: {} };
}

const isHttp = (location: string) => /^https?:\/\//i.test(location);

async function readBytes(location: string): Promise<Uint8Array> {
  if (isNodeRuntime() && !isHttp(location)) {
    const { readFile } = await nodeBuiltin<typeof import('node:fs/promises')>('node:fs/promises');
    return new Uint8Array(await readFile(location.startsWith('file:') ? new URL(location) : location));
  }
  // `Accept` keeps dev servers from answering a missing file with their index.html.
  const response = await fetch(location, { headers: { Accept: 'application/octet-stream, application/json' } });
  if (!response.ok) throw new Error(`HTTP ${response.status} ${response.statusText}`.trim());
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * A Node built-in, out of sight of browser bundlers (which reject `node:` imports even where
 * they never run): `process.getBuiltinModule` (Node 20.16 and later), else a dynamic import.
 */
async function nodeBuiltin<Module>(name: string): Promise<Module> {
  const process = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const builtin = process?.getBuiltinModule?.(name);
  if (builtin !== undefined) return builtin as Module;
  return (await import(/* @vite-ignore */ /* webpackIgnore: true */ name)) as Module;
}
