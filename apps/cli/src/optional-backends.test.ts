import { createRequire } from 'node:module';
import { createRandomDecoder, type BackendRegistration, type ModelSource } from '@reward-lens/core';
import { describe, expect, it } from 'vitest';
import { installCommand, isPackageMissing, optionalBackends } from './optional-backends.js';
import { packageVersion } from './package-version.js';
import { lazyRegistration } from './register-backends.js';

const require = createRequire(import.meta.url);
const source: ModelSource = { kind: 'decoder', model: createRandomDecoder({ seed: 0 }), description: 'a seeded model' };

/** What Node throws for a package that is not installed (CommonJS form; the ESM form is checked on installed tarballs in tools/package-tests). */
function missingPackageError(name: string): unknown {
  try {
    require(name);
  } catch (error) {
    return error;
  }
  throw new Error(`${name} is installed`);
}

describe('optional backends', () => {
  it.each(optionalBackends.map((backend) => [backend.name, backend] as const))(
    '%s: the priority, explicit-only flag, dtypes and source kinds known before loading are those of the package',
    async (_name, backend) => {
      const registration = await backend.load();
      expect(registration.name).toBe(backend.name);
      expect(registration.priority).toBe(backend.priority);
      expect(registration.dtypes ?? ['fp32']).toEqual(backend.dtypes ?? ['fp32']);
      expect(registration.explicitOnly === true).toBe(backend.explicitOnly === true);
      expect(registration.sourceKinds).toEqual(backend.sourceKinds);
    },
  );

  it('tells a missing package from a package whose own dependency is missing', () => {
    const error = missingPackageError('@reward-lens/backend-not-installed');
    expect(isPackageMissing(error, '@reward-lens/backend-not-installed')).toBe(true);
    expect(isPackageMissing(error, '@reward-lens/backend')).toBe(false);
    const dependencyMissing = Object.assign(
      new Error("Cannot find package 'onnxruntime-node' imported from /x/node_modules/@reward-lens/backend-onnx-node/dist/index.js"),
      {
        code: 'ERR_MODULE_NOT_FOUND',
      },
    );
    expect(isPackageMissing(dependencyMissing, '@reward-lens/backend-onnx-node')).toBe(false);
    expect(isPackageMissing(new Error("Cannot find package '@reward-lens/backend-onnx-node'"), '@reward-lens/backend-onnx-node')).toBe(false);
  });

  it('names the install command at the CLI version (the packages are released together)', () => {
    expect(installCommand('@reward-lens/backend-onnx-node')).toBe(`npm install @reward-lens/backend-onnx-node@${packageVersion()}`);
  });

  it('a lazy registration skips a package that is not installed with the install command, and loads nothing before it is asked', async () => {
    let loads = 0;
    const registration = lazyRegistration({
      name: 'not-installed',
      packageName: '@reward-lens/backend-not-installed',
      priority: 1,
      sourceKinds: ['decoder'],
      load: async () => {
        loads++;
        throw missingPackageError('@reward-lens/backend-not-installed');
      },
    });
    expect(loads).toBe(0);
    expect(await registration.unavailableReason(source, { requestedByName: false })).toBe(
      `@reward-lens/backend-not-installed is not installed (npm install @reward-lens/backend-not-installed@${packageVersion()} to use it)`,
    );
    expect(loads).toBe(1);
  });

  it('a lazy registration defers to the loaded package', async () => {
    const inner: BackendRegistration = {
      name: 'inner',
      priority: 1,
      unavailableReason: (candidate) => (candidate.kind === 'onnx' ? 'decoders only' : null),
      create: async () => {
        throw new Error('created');
      },
    };
    const registration = lazyRegistration({
      name: 'inner',
      packageName: '@reward-lens/inner',
      priority: 1,
      sourceKinds: ['decoder', 'onnx'],
      load: async () => inner,
    });
    expect(await registration.unavailableReason(source, { requestedByName: true })).toBeNull();
    expect(await registration.unavailableReason({ kind: 'onnx', path: 'model.onnx', description: 'a graph' }, { requestedByName: true })).toBe('decoders only');
    await expect(registration.create(source, {})).rejects.toThrow('created');
  });
});
