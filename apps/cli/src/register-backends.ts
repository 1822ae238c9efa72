// The backends the CLI can run. backend-tiny is a dependency, registered by its side-effect entry;
// webgpu, onnx-node and onnx-web are optional peer dependencies, registered lazily (see
// optional-backends.ts): nothing heavy is imported until a backend is asked for or tried, and one
// that is not installed is skipped by `--backend auto` with the reason in the notes. `auto` tries
// them highest priority first: webgpu (30, only on a hardware adapter), onnx-node (20),
// onnx-web (15), then tiny (10). `webgpu` named explicitly also runs on a software adapter.
//
// Every module that resolves a backend imports this file, and calls `requireBackendPackage` with
// the backend it was asked for.
import '@reward-lens/backend-tiny/register';
import { registerBackend, type BackendRegistration } from '@reward-lens/core';
import { BackendNotInstalledError } from './backend-not-installed-error.js';
import { installCommand, isPackageMissing, optionalBackends, type OptionalBackend } from './optional-backends.js';

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A registration that imports the package on first use and then defers to the package's own registration. */
export function lazyRegistration(backend: OptionalBackend): BackendRegistration {
  let loading: Promise<BackendRegistration> | undefined;
  const load = () => {
    loading ??= backend.load();
    return loading;
  };
  return {
    name: backend.name,
    priority: backend.priority,
    ...(backend.explicitOnly ? { explicitOnly: true } : {}),
    ...(backend.dtypes ? { dtypes: backend.dtypes } : {}),
    sourceKinds: backend.sourceKinds,
    async unavailableReason(source, context) {
      let registration: BackendRegistration;
      try {
        registration = await load();
      } catch (error) {
        if (isPackageMissing(error, backend.packageName)) return `${backend.packageName} is not installed (${installCommand(backend.packageName)} to use it)`;
        return `${backend.packageName} could not be loaded: ${messageOf(error)}`;
      }
      return registration.unavailableReason(source, context);
    },
    async create(source, options) {
      return (await load()).create(source, options);
    },
  };
}

for (const backend of optionalBackends) registerBackend(lazyRegistration(backend));

/**
 * Loads the package of a backend asked for by name, so that a missing one fails with the
 * package to install (`BackendNotInstalledError`) before any work. `auto`, `tiny` and names the
 * CLI does not know pass through (resolution reports the latter).
 */
export async function requireBackendPackage(requested: string): Promise<void> {
  const backend = optionalBackends.find((candidate) => candidate.name === requested);
  if (backend === undefined) return;
  try {
    await backend.load();
  } catch (error) {
    if (isPackageMissing(error, backend.packageName)) {
      throw new BackendNotInstalledError(backend.name, backend.packageName, installCommand(backend.packageName), { cause: error });
    }
    throw error;
  }
}
