import { expect } from 'vitest';
import { transform } from 'esbuild';

/** The first ```ts block after `marker` in a Markdown text. */
export function codeBlockAfter(markdown: string, marker: string): string {
  const start = markdown.indexOf(marker);
  if (start < 0) throw new Error(`the README has no "${marker}"`);
  const block = /```ts\n([\s\S]*?)\n```/.exec(markdown.slice(start));
  if (!block) throw new Error(`the README has no \`\`\`ts block after "${marker}"`);
  return block[1]!;
}

/** One `expression; // what the README says it is` line of an example, with the value it had. */
export interface RecordedClaim {
  expression: string;
  comment: string;
  value: unknown;
}

const recorder = `const __claims = [];
function __record(expression, comment, value) {
  const plain = ArrayBuffer.isView(value) ? { [value.constructor.name]: Array.from(value) } : value;
  __claims.push({ expression, comment, value: plain });
}`;
const printClaims = 'console.log(JSON.stringify(__claims));';

/**
 * The README's example as a program that records each commented expression statement
 * (`steps.value.stepCounts; // [3]`) instead of discarding its value, and prints the records as
 * JSON: the README's claims can then be checked against what the installed packages do.
 */
function recordingSource(example: string): { imports: string; body: string } {
  const imports: string[] = [];
  const body: string[] = [];
  for (const line of example.split('\n')) {
    if (/^import\s/.test(line)) {
      imports.push(line);
      continue;
    }
    const claim = /^(?!(?:const|let|var|await|return|if|for)\b)(\S[^;]*);\s*\/\/\s*(.*)$/.exec(line);
    body.push(claim ? `__record(${JSON.stringify(claim[1])}, ${JSON.stringify(claim[2])}, ${claim[1]});` : line);
  }
  return { imports: imports.join('\n'), body: body.join('\n') };
}

/** The example as an ES module (top-level await as written). */
export async function exampleAsEsm(example: string): Promise<string> {
  const { imports, body } = recordingSource(example);
  const { code } = await transform(`${imports}\n${recorder}\n${body}\n${printClaims}\n`, { loader: 'ts', format: 'esm', target: 'node20' });
  return code;
}

/** The example as CommonJS: imports become `require` calls, and the body runs in an async function. */
export async function exampleAsCommonJs(example: string): Promise<string> {
  const { imports, body } = recordingSource(example);
  const wrapped = `${imports}\n${recorder}\n(async () => {\n${body}\n${printClaims}\n})().catch((error) => { console.error(error); process.exitCode = 1; });\n`;
  const { code } = await transform(wrapped, { loader: 'ts', format: 'cjs', target: 'node20' });
  return code;
}

/**
 * What a comment claims, when it starts with a literal: `'text'`, a JSON array, `true`/`false`, or
 * "Float32Array of N". `undefined` for a comment in words only.
 */
export function claimedValue(comment: string): { literal: unknown } | { typedArray: string; length: number } | undefined {
  const quoted = /^'((?:[^'\\]|\\.)*)'/.exec(comment);
  if (quoted) return { literal: quoted[1] };
  const array = /^(\[[^\]]*\])/.exec(comment);
  if (array) return { literal: JSON.parse(array[1]!) };
  const boolean = /^(true|false)\b/.exec(comment);
  if (boolean) return { literal: boolean[1] === 'true' };
  const typed = /^(\w+Array) of (\d+)\b/.exec(comment);
  if (typed) return { typedArray: typed[1]!, length: Number(typed[2]) };
  return undefined;
}

/** The claims a README example script printed (its last line, JSON). */
export function parseClaims(stdout: string): RecordedClaim[] {
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as RecordedClaim[];
}

/** Checks each README comment that states a value ("// [3]", "// 'EXPLORATORY' ...") against the value it had. */
export function expectClaimsHold(claims: RecordedClaim[]): void {
  let checked = 0;
  for (const claim of claims) {
    const expected = claimedValue(claim.comment);
    if (expected === undefined) {
      expect(claim.value, claim.expression).toBeDefined();
      continue;
    }
    checked++;
    if ('literal' in expected) expect(claim.value, `${claim.expression} // ${claim.comment}`).toEqual(expected.literal);
    else expect((claim.value as Record<string, unknown[]>)[expected.typedArray], `${claim.expression} // ${claim.comment}`).toHaveLength(expected.length);
  }
  expect(checked).toBeGreaterThanOrEqual(5);
}
