import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAndPack, type PackedPackage } from './build-and-pack.js';
import { consumerModule, entrySpecifiers, node10Tsconfig, strictTsconfig } from './consumer-files.js';
import { isInstalledWith, reachableImports } from './module-graph.js';
import { folderSize, readPackedManifest } from './packed-manifest.js';
import { codeBlockAfter, exampleAsCommonJs, exampleAsEsm, expectClaimsHold, parseClaims } from './readme-example.js';
import { runChecked, runCommand } from './run-command.js';
import { bundleForBrowser } from './browser-bundle.js';
import { createScratchProject, placeScript } from './scratch-project.js';
import { publishablePackages, repositoryRoot, runtimeWorkspaceClosure, toolBinary } from './workspace.js';

// The packages as npm users get them: built, packed with `pnpm pack`, installed with npm into a
// project outside the workspace, then used the ways users use them. Slow (a build, two installs),
// so the hooks and tests have the project's long timeout; nothing here is timed.

const packages = publishablePackages();
const readme = readFileSync(join(repositoryRoot, 'README.md'), 'utf8');
const apiExample = codeBlockAfter(readme, '## Using the API');
const keepScratch = process.env.REWARD_LENS_KEEP_SCRATCH === '1';

let workRoot: string;
let packed: PackedPackage[];
let fullProject: string;

function packedPackage(name: string): PackedPackage {
  const found = packed.find((entry) => entry.name === name);
  if (!found) throw new Error(`${name} was not packed`);
  return found;
}

beforeAll(async () => {
  workRoot = await mkdtemp(join(tmpdir(), 'reward-lens-packages-'));
  packed = await buildAndPack(packages, join(workRoot, 'tarballs'));
  fullProject = await createScratchProject(
    join(workRoot, 'all-packages'),
    packed.map((entry) => entry.tarball),
  );
});

afterAll(async () => {
  if (workRoot && !keepScratch) await rm(workRoot, { recursive: true, force: true });
});

describe('every published package', () => {
  it('is packed: core, the backends, the exporter and the CLI', () => {
    expect(packages.map((entry) => entry.name)).toEqual(
      expect.arrayContaining(['@reward-lens/core', '@reward-lens/backend-tiny', '@reward-lens/backend-webgpu', '@reward-lens/cli']),
    );
  });

  it.each(packages.map((entry) => entry.name))('%s: LICENSE, README, repository, homepage, bugs, and no workspace: ranges', async (name) => {
    const entry = packedPackage(name);
    expect(entry.files).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'package.json']));
    expect(entry.files.filter((file) => /(^|\/)src\/|\.test\.|(^|\/)test-support\//.test(file))).toEqual([]);
    expect(readFileSync(join(repositoryRoot, entry.directory, 'LICENSE'), 'utf8')).toBe(readFileSync(join(repositoryRoot, 'LICENSE'), 'utf8'));
    const manifest = await readPackedManifest(entry.tarball);
    expect(manifest.license).toBe('Apache-2.0');
    expect(manifest.repository).toEqual({ type: 'git', url: 'git+https://github.com/reward-lens/reward-lens.git', directory: entry.directory });
    expect(manifest.homepage).toBe(`https://github.com/reward-lens/reward-lens/tree/main/${entry.directory}#readme`);
    expect(manifest.bugs?.url).toBe('https://github.com/reward-lens/reward-lens/issues');
    const ranges = { ...manifest.dependencies, ...manifest.peerDependencies, ...manifest.optionalDependencies };
    expect(Object.entries(ranges).filter(([, range]) => range.startsWith('workspace:'))).toEqual([]);
  });

  it.each(packages.map((entry) => entry.name))('%s: publint --strict reports nothing', async (name) => {
    const tarball = readFileSync(packedPackage(name).tarball);
    const { messages, pkg } = await publint({
      pack: { tarball: tarball.buffer.slice(tarball.byteOffset, tarball.byteOffset + tarball.byteLength) },
      strict: true,
    });
    expect(messages.map((message) => `${message.type}: ${formatMessage(message, pkg, { color: false })}`)).toEqual([]);
  });

  // Every resolution mode: node10 reads no subpath exports (`/register`, `/node`), so typesVersions maps them.
  it.each(packages.map((entry) => entry.name))('%s: arethetypeswrong finds no problem (node10, node16 CJS and ESM, bundler)', async (name) => {
    const result = await runCommand(toolBinary('attw'), [packedPackage(name).tarball, '--format', 'ascii'], { cwd: workRoot });
    expect(result.exitCode, `${result.stdout}\n${result.stderr}`).toBe(0);
  });
});

describe("the README's API example, installed", () => {
  it('runs as an ES module, and each value its comments state holds', async () => {
    await writeFile(join(fullProject, 'readme-example.mjs'), await exampleAsEsm(apiExample));
    const { stdout } = await runChecked(process.execPath, ['readme-example.mjs'], { cwd: fullProject });
    expectClaimsHold(parseClaims(stdout));
  });

  it('runs as CommonJS (require) with the same values: the backend registered through /register is found', async () => {
    await writeFile(join(fullProject, 'readme-example.cjs'), await exampleAsCommonJs(apiExample));
    const commonJs = parseClaims((await runChecked(process.execPath, ['readme-example.cjs'], { cwd: fullProject })).stdout);
    expectClaimsHold(commonJs);
    const esm = parseClaims((await runChecked(process.execPath, ['readme-example.mjs'], { cwd: fullProject })).stdout);
    expect(commonJs).toEqual(esm);
  });
});

describe('one copy of each module and one registry per process', () => {
  const allTrue = { errorClassAcrossEntries: true, tinyRegisteredIsExported: true, webgpuRegisteredIsExported: true };

  it.each([
    ['CommonJS', 'identities.cjs'],
    ['ESM', 'identities.mjs'],
  ])('%s: the entries of a package share their modules (errors are one class, the registered backend is the exported one)', async (_kind, file) => {
    await placeScript(fullProject, file);
    const { stdout } = await runChecked(process.execPath, [file], { cwd: fullProject });
    expect(JSON.parse(stdout)).toEqual(allTrue);
  });

  it.each([
    ['CommonJS', 'folder-thread.cjs'],
    ['ESM', 'folder-thread.mjs'],
  ])(
    '%s: onnx-node named on a safetensors folder at q4 reads it in its export thread and quantizing threads, from the built worker files',
    async (_kind, file) => {
      await placeScript(fullProject, file);
      const { stdout } = await runChecked(process.execPath, [file], { cwd: fullProject });
      const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as { description: string; steps: number };
      expect(result.description).toContain('by a thread that read the weights in');
      expect(result.description).toContain('(q4, MatMulNBits)');
      expect(result.steps).toBe(2);
    },
  );

  it('a backend registered through the CommonJS build is found by the ESM build in the same process', async () => {
    await placeScript(fullProject, 'dual-build.mjs');
    const { stdout } = await runChecked(process.execPath, ['dual-build.mjs'], { cwd: fullProject });
    expect(JSON.parse(stdout)).toEqual({ registered: ['tiny'], backend: 'tiny' });
  });
});

describe('the conformance kit (@reward-lens/core/testing) needs no test framework', () => {
  const coreFolder = () => join(fullProject, 'node_modules/@reward-lens/core');
  const coreManifest = () =>
    JSON.parse(readFileSync(join(coreFolder(), 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      exports: Record<string, { import: { default: string }; require: { default: string } }>;
    };

  it.each(['import', 'require'] as const)('its %s build loads only core dependencies and Node built-ins: never vitest', (condition) => {
    const manifest = coreManifest();
    const { files, bare } = reachableImports(coreFolder(), [manifest.exports['./testing']![condition].default]);
    expect(files.length).toBeGreaterThan(1);
    const outside = [...bare].filter(([specifier]) => !isInstalledWith(specifier, manifest.dependencies ?? {}));
    expect(outside.map(([specifier, importers]) => `${specifier} (loaded by ${[...new Set(importers)].join(', ')})`)).toEqual([]);
  });

  it('loads from CommonJS and ESM, and runs the backend and gradient conformance under node:test, in a project without vitest', async () => {
    // What a node:test or jest user has: the packages and their dependencies, and no vitest. The
    // scripts run without the NODE_PATH that pnpm's vitest shim sets (the workspace's store, vitest in it).
    const { NODE_PATH: _storePath, ...userEnvironment } = process.env;
    await placeScript(fullProject, 'kit.cjs');
    const { stdout: loaded } = await runChecked(process.execPath, ['kit.cjs'], { cwd: fullProject, env: userEnvironment });
    expect(JSON.parse(loaded)).toEqual({ vitest: 'not installed', kit: ['function', 'function', 'function'] });
    // A few tests of each suite (the whole of both takes minutes), through the node:test adapter.
    await placeScript(fullProject, 'kit.node-test.mjs');
    const { stdout } = await runChecked(process.execPath, ['--test', '--test-reporter=tap', 'kit.node-test.mjs'], { cwd: fullProject, env: userEnvironment });
    // Two seeded configs: 2 backend tests and 3 gradient tests pass on each, the declared skip is reported with its reason.
    expect(stdout).toMatch(/^# fail 0$/m);
    expect(stdout).toMatch(/^# pass 10$/m);
    expect(stdout).toMatch(/^# skipped 2$/m);
    expect(stdout.match(/^\s*ok \d+ - (flags and methods agree|gradient matches finite differences|step gradients are causal)$/gm)).toHaveLength(6);
    expect(stdout.match(/ok \d+ - score hvp # SKIP declared in the script/g)).toHaveLength(2);
  });
});

describe('browser bundles: esbuild --bundle --platform=browser, no other flags', () => {
  const bundle = (name: string, source: string, extension = 'mjs') => bundleForBrowser(fullProject, name, source, extension);

  it('core + backend-tiny (the README example) bundle, and the bundle gives the same values', async () => {
    const output = await bundle('readme-example', await exampleAsEsm(apiExample));
    const text = readFileSync(output, 'utf8');
    expect(text).not.toMatch(/from ["'](node:)?(fs|fs\/promises|path)["']/);
    // Run in Node, the browser bundle's code is what a page runs: the same seeded model, the same values.
    const bundled = parseClaims((await runChecked(process.execPath, [output], { cwd: fullProject })).stdout);
    const esm = parseClaims((await runChecked(process.execPath, ['readme-example.mjs'], { cwd: fullProject })).stdout);
    expect(bundled).toEqual(esm);
  });

  it('ProcessRM.fromPretrained in a browser bundle fails with a typed error instead of reaching node:fs', async () => {
    const output = await bundle(
      'from-pretrained',
      `import { ProcessRM } from '@reward-lens/core';
ProcessRM.fromPretrained('models/any').then(
  () => console.log('loaded'),
  (error) => console.log(JSON.stringify({ code: error.code, message: error.message })),
);`,
    );
    const { stdout } = await runChecked(process.execPath, [output], { cwd: fullProject });
    const failure = JSON.parse(stdout) as { code: string; message: string };
    expect(failure.code).toBe('MODEL_LOAD');
    expect(failure.message).toMatch(/needs Node.*ProcessRM\.fromBackend/);
  });

  it('backend-webgpu (the README\'s "In a browser bundle" example) bundles', async () => {
    const example = codeBlockAfter(readme, '**In a browser bundle**');
    expect(example).toMatch(/@reward-lens\/backend-webgpu/);
    expect(existsSync(await bundle('webgpu-example', example, 'ts'))).toBe(true);
  });

  it('backend-onnx-web and its register entry bundle', async () => {
    const source = `import { createOnnxWebBackend } from '@reward-lens/backend-onnx-web';
import '@reward-lens/backend-onnx-web/register';
import '@reward-lens/backend-webgpu/register';
console.log(typeof createOnnxWebBackend);`;
    expect(existsSync(await bundle('onnx-web', source))).toBe(true);
  });

  it("model-default's browser entry bundles without node:fs and scores as its Node entry does, from weights it is handed", async () => {
    const weights = join(fullProject, 'node_modules/@reward-lens/model-default/model/model.safetensors');
    const input = {
      problem: 'Ann has 3 apples. She buys 4 more apples. How many apples does Ann have now?',
      steps: ['3 apples plus 4 apples is 3 + 4 = 7 apples.', 'The answer is 7.'],
    };
    // The weights come in as bytes (a page fetches them); the file is read through a specifier the bundler leaves alone.
    const source = `import '@reward-lens/backend-tiny/register';
import { loadDefaultPrm } from '@reward-lens/model-default';
const fs = 'node:fs/promises';
const weights = new Uint8Array(await (await import(fs)).readFile(${JSON.stringify(weights)}));
const prm = await loadDefaultPrm({ backend: 'tiny', weights });
const evidence = await prm.stepScores([${JSON.stringify(input)}]);
console.log(JSON.stringify({ scores: Array.from(evidence.value.curves[0]), trust: evidence.trust, method: (await prm.segment([${JSON.stringify(input.problem)}, ${JSON.stringify(input.steps.join(' '))}])).meta.stepMethod }));`;
    const output = await bundle('model-default', source);
    expect(readFileSync(output, 'utf8')).not.toMatch(/from ["'](node:)?(fs|fs\/promises|path|url)["']/);
    const nodeEntry = `import '@reward-lens/backend-tiny/register';
import { loadDefaultPrm } from '@reward-lens/model-default';
const prm = await loadDefaultPrm({ backend: 'tiny' });
console.log(JSON.stringify(Array.from((await prm.stepScores([${JSON.stringify(input)}])).value.curves[0])));`;
    await writeFile(join(fullProject, 'model-default-node.mjs'), nodeEntry);
    const bundled = JSON.parse((await runChecked(process.execPath, [output], { cwd: fullProject })).stdout) as {
      scores: number[];
      trust: string;
      method: string;
    };
    const fromNode = JSON.parse((await runChecked(process.execPath, ['model-default-node.mjs'], { cwd: fullProject })).stdout) as number[];
    expect(bundled.scores).toEqual(fromNode);
    expect(bundled.trust).toBe('CALIBRATED');
    expect(bundled.method).toBe('learned');
  });

  it("model-default's CommonJS build finds model/ beside its dist (the import.meta.url shim) and scores as its ESM build does", async () => {
    const input = {
      problem: 'Ann has 3 apples. She buys 4 more apples. How many apples does Ann have now?',
      steps: ['3 apples plus 4 apples is 3 + 4 = 7 apples.', 'The answer is 8.'],
    };
    const score = (load: string) => `${load}
(async () => {
  const prm = await loadDefaultPrm({ backend: 'tiny' });
  const evidence = await prm.stepScores([${JSON.stringify(input)}]);
  console.log(JSON.stringify({ folder: defaultModelFolder, scores: Array.from(evidence.value.curves[0]), trust: evidence.trust }));
})();`;
    await writeFile(
      join(fullProject, 'model-default.cjs'),
      score(`require('@reward-lens/backend-tiny/register');\nconst { defaultModelFolder, loadDefaultPrm } = require('@reward-lens/model-default');`),
    );
    await writeFile(
      join(fullProject, 'model-default.mjs'),
      score(`import '@reward-lens/backend-tiny/register';\nimport { defaultModelFolder, loadDefaultPrm } from '@reward-lens/model-default';`),
    );
    const run = async (file: string) =>
      JSON.parse((await runChecked(process.execPath, [file], { cwd: fullProject })).stdout) as { folder: string; scores: number[]; trust: string };
    const [fromCommonJs, fromEsm] = await Promise.all([run('model-default.cjs'), run('model-default.mjs')]);
    expect(fromCommonJs.folder).toMatch(/node_modules\/@reward-lens\/model-default\/model\/$/);
    expect(fromCommonJs).toEqual(fromEsm);
    expect(fromCommonJs.trust).toBe('CALIBRATED');
    expect(fromCommonJs.scores).toHaveLength(2);
  });
});

describe('types, as a consumer with skipLibCheck off sees them', () => {
  async function typecheck(name: string, files: Record<string, string>, lib: readonly string[]): Promise<void> {
    const folder = join(fullProject, 'types', name);
    await mkdir(folder, { recursive: true });
    for (const [file, text] of Object.entries(files)) await writeFile(join(folder, file), text);
    // The consumer's folder is inside the scratch project: its node_modules is found by walking up.
    await writeFile(join(folder, 'tsconfig.json'), strictTsconfig(Object.keys(files), lib));
    await runChecked(toolBinary('tsc'), ['-p', folder], { cwd: folder });
  }

  it('every entry of every package, from ESM and from CommonJS, and the README example', async () => {
    const specifiers = packed.flatMap(entrySpecifiers);
    await typecheck(
      'all-entries',
      { 'consumer.mts': consumerModule(specifiers), 'consumer.cts': consumerModule(specifiers), 'readme-example.mts': apiExample },
      ['ES2022', 'DOM'],
    );
  });

  it("every entry under TypeScript's node10 resolution (CommonJS projects on older settings), through typesVersions", async () => {
    const specifiers = packed.flatMap(entrySpecifiers);
    const folder = join(fullProject, 'types', 'node10');
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'consumer.ts'), consumerModule(specifiers));
    await writeFile(join(folder, 'tsconfig.json'), node10Tsconfig(['consumer.ts']));
    await runChecked(toolBinary('tsc'), ['-p', folder], { cwd: folder });
  });

  it('core, backend-tiny, onnx-export and the CLI need no DOM library (onnxruntime and @webgpu/types do)', async () => {
    const nodeOnly = ['@reward-lens/core', '@reward-lens/backend-tiny', '@reward-lens/onnx-export', '@reward-lens/cli'];
    const specifiers = packed.filter((entry) => nodeOnly.includes(entry.name)).flatMap(entrySpecifiers);
    await typecheck('node-only', { 'consumer.mts': consumerModule(specifiers), 'consumer.cts': consumerModule(specifiers) }, ['ES2022']);
  });
});

describe('@reward-lens/model-default imported alone', () => {
  it.each([
    ['ESM', 'default-alone.mjs'],
    ['CommonJS', 'default-alone.cjs'],
  ])('%s: loads and scores on backend-tiny, its dependency, with nothing else imported', async (_format, file) => {
    await placeScript(fullProject, file);
    const { stdout } = await runChecked(process.execPath, [file], { cwd: fullProject });
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({ backend: 'tiny', steps: 2 });
  });
});

describe('the reward-lens binary, with every backend installed', () => {
  const binary = () => join(fullProject, 'node_modules/.bin/reward-lens');
  const example = () => join(fullProject, 'node_modules/@reward-lens/cli/examples/solution.json');

  it('scores the bundled example with the installed default PRM, calibrated, its arithmetic slip found', async () => {
    const { stdout } = await runChecked(binary(), ['score', '--file', example(), '--json'], { cwd: fullProject });
    const record = JSON.parse(stdout) as { stepScores: number[]; outcome: number; trust: string; notes: string[]; predictedErrorStep: number };
    expect(record.stepScores).toHaveLength(4);
    expect(record.outcome).toBe(record.stepScores[3]);
    expect(record.trust).toBe('CALIBRATED');
    expect(record.notes.join('\n')).toMatch(/reward-lens-organism-prm/);
    expect(record.notes[0]).toMatch(/node_modules\/@reward-lens\/model-default\/model/);
    // 13 × 2 = 62 at step 3: the first step below the shipped threshold, as from source.
    expect(record.stepScores[1]).toBeGreaterThan(0.5);
    expect(record.stepScores[2]).toBeLessThan(0.5);
    expect(record.predictedErrorStep).toBe(2);
  });

  it("--backend onnx-node reads the default PRM's safetensors in its export thread (the built worker file) and scores as tiny does", async () => {
    const scored = async (backend: string) => {
      const { stdout } = await runChecked(binary(), ['score', '--file', example(), '--backend', backend, '--dtype', 'q8', '--json'], { cwd: fullProject });
      return JSON.parse(stdout) as { stepScores: number[]; notes: string[] };
    };
    const [onnx, tiny] = [await scored('onnx-node'), await scored('tiny')];
    expect(onnx.stepScores).toHaveLength(4);
    // Both at q8 (MatMulNBits against tiny's int8 kernels): within a hundredth, the slip at step 3 found by both.
    onnx.stepScores.forEach((score, index) => expect(Math.abs(score - tiny.stepScores[index]!)).toBeLessThan(0.01));
    expect(onnx.stepScores[2]).toBeLessThan(0.5);
    expect(onnx.notes.join('\n')).toContain('backend "onnx-node" runs a graph with q8 projection weights');
    const { stdout } = await runChecked(binary(), ['caps', '--backend', 'onnx-node', '--dtype', 'q8', '--json'], { cwd: fullProject });
    expect((JSON.parse(stdout) as { model: { description: string } }).model.description).toContain('by a thread that read the weights in');
  });

  it('shows the capabilities (caps)', async () => {
    const { stdout } = await runChecked(binary(), ['caps', '--json'], { cwd: fullProject });
    const report = JSON.parse(stdout) as { capabilities: string; backend: string; registeredBackends: { name: string }[] };
    expect(report.capabilities).toBe('SCORES|PREFIX_SCORES|ACTIVATIONS|GRADIENTS|HVP|LINEAR_READOUT|STEP_SCORES');
    expect(report.backend).toBe('tiny');
    expect(report.registeredBackends.map((entry) => entry.name)).toEqual(expect.arrayContaining(['webgpu', 'onnx-node', 'onnx-web', 'tiny']));
  });

  it('--backend auto prints nothing on stderr (no Dawn probe output on a machine without a GPU)', async () => {
    const { stdout, stderr } = await runChecked(binary(), ['score', '--file', example(), '--backend', 'auto', '--json'], { cwd: fullProject });
    expect(stderr).toBe('');
    const record = JSON.parse(stdout) as { notes: string[] };
    expect(record.notes.some((note) => /^backend "webgpu" skipped/.test(note))).toBe(true);
  });

  it('runs in-process from CommonJS (require("@reward-lens/cli").main)', async () => {
    const script = `const { main } = require('@reward-lens/cli');
main(['--version'], { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }).then((code) => { process.exitCode = code; });`;
    await writeFile(join(fullProject, 'cli-version.cjs'), script);
    const { stdout } = await runChecked(process.execPath, ['cli-version.cjs'], { cwd: fullProject });
    expect(stdout.trim()).toBe(packedPackage('@reward-lens/cli').version);
  });
});

describe('the CLI installed alone: backend-tiny only', () => {
  const heavyPackages = [
    'onnxruntime-node',
    'onnxruntime-web',
    'webgpu',
    '@reward-lens/backend-onnx-node',
    '@reward-lens/backend-onnx-web',
    '@reward-lens/backend-webgpu',
  ];
  let project: string;
  // npm resolves @reward-lens/* from the registry unless the tarballs are named: name the CLI and its own dependencies only.
  const cliDependencies = runtimeWorkspaceClosure('@reward-lens/cli', packages);

  beforeAll(async () => {
    project = await createScratchProject(
      join(workRoot, 'cli-only'),
      cliDependencies.map((name) => packedPackage(name).tarball),
    );
  });

  it('installs none of onnxruntime, Dawn or the heavy backends', async () => {
    expect(heavyPackages.filter((name) => existsSync(join(project, 'node_modules', name)))).toEqual([]);
    const [alone, everything] = [await folderSize(join(project, 'node_modules')), await folderSize(join(fullProject, 'node_modules'))];
    console.info(`node_modules: CLI alone ${(alone / 2 ** 20).toFixed(1)} MiB, every package ${(everything / 2 ** 20).toFixed(1)} MiB`);
    expect(alone).toBeLessThan(50 * 2 ** 20);
  });

  it('scores with tiny, and auto says which backends were skipped because they are not installed', async () => {
    const binary = join(project, 'node_modules/.bin/reward-lens');
    const example = join(project, 'node_modules/@reward-lens/cli/examples/solution.json');
    const { stdout, stderr } = await runChecked(binary, ['score', '--file', example, '--backend', 'auto', '--json'], { cwd: project });
    expect(stderr).toBe('');
    const record = JSON.parse(stdout) as { backend: string; notes: string[] };
    expect(record.backend).toBe('tiny');
    for (const name of ['webgpu', 'onnx-node', 'onnx-web']) {
      expect(record.notes).toContainEqual(
        expect.stringMatching(new RegExp(`^backend "${name}" skipped: @reward-lens/backend-${name} is not installed \\(npm install`)),
      );
    }
  });

  it('names the package to install when a missing backend is asked for', async () => {
    const binary = join(project, 'node_modules/.bin/reward-lens');
    const result = await runCommand(binary, ['score', '--problem', 'p', '--solution', 'a\nb', '--backend', 'onnx-node'], { cwd: project });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(
      /BACKEND_NOT_INSTALLED: backend "onnx-node" needs the package @reward-lens\/backend-onnx-node, which is not installed: npm install @reward-lens\/backend-onnx-node@/,
    );
  });
});
