import { RewardLensError } from '@reward-lens/core';

/**
 * A backend asked for by name whose package is not installed. The CLI depends on backend-tiny only;
 * the heavy backends (onnxruntime, Dawn) are optional peer dependencies, installed by those who use them.
 */
export class BackendNotInstalledError extends RewardLensError {
  static readonly code = 'BACKEND_NOT_INSTALLED';
  /** The backend's name, as `--backend` takes it. */
  readonly backend: string;
  /** The npm package that provides it. */
  readonly packageName: string;

  constructor(backend: string, packageName: string, installCommand: string, options?: { cause?: unknown }) {
    super(BackendNotInstalledError.code, `backend "${backend}" needs the package ${packageName}, which is not installed: ${installCommand}`, options);
    this.name = 'BackendNotInstalledError';
    this.backend = backend;
    this.packageName = packageName;
  }

  static override isInstance(value: unknown): value is BackendNotInstalledError {
    return RewardLensError.hasCode(value, BackendNotInstalledError.code);
  }
}
