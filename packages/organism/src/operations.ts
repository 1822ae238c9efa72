/** The four operations of the organism, by their canonical symbols (U+002B, U+2212, U+00D7, U+00F7). */
export type Operation = '+' | '−' | '×' | '÷';

export const operations: readonly Operation[] = ['+', '−', '×', '÷'];

/** Symbols the verifier reads as an operation: the canonical ones and the ASCII spellings people type. */
export const operationAliases: Readonly<Record<string, Operation>> = {
  '+': '+',
  '−': '−',
  '-': '−',
  '×': '×',
  '*': '×',
  x: '×',
  '÷': '÷',
  '/': '÷',
};

export function isCommutative(operation: Operation): boolean {
  return operation === '+' || operation === '×';
}

/**
 * `left operation right` when the result is a whole number of at least 0, else null (a
 * division with a remainder, a negative difference, a division by 0). The organism's
 * quantities are counts: every result it writes is a whole number.
 */
export function applyOperation(operation: Operation, left: number, right: number): number | null {
  switch (operation) {
    case '+':
      return left + right;
    case '−':
      return left - right >= 0 ? left - right : null;
    case '×':
      return left * right;
    case '÷':
      return right !== 0 && left % right === 0 ? left / right : null;
  }
}

/**
 * Operation names for command lines and options: the symbols, their ASCII spellings, and
 * `add`, `subtract`, `multiply`, `divide`.
 */
export function parseOperationName(name: string): Operation | undefined {
  const words: Record<string, Operation> = { add: '+', subtract: '−', multiply: '×', divide: '÷' };
  return operationAliases[name] ?? words[name.toLowerCase()];
}
