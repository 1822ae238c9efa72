/**
 * The message an error body carries, in the shapes servers use: OpenAI's and vLLM's
 * `{ error: { message } }`, `{ message }`, FastAPI's `{ detail }` (a string, or validation errors
 * with their locations); a body that is not JSON is its own message. Undefined when there is none.
 */
export function serverErrorMessage(body: unknown): string | undefined {
  if (typeof body === 'string') return body.trim() === '' ? undefined : body.trim().slice(0, 500);
  if (!isRecord(body)) return undefined;
  if (typeof body.error === 'string') return body.error;
  if (isRecord(body.error) && typeof body.error.message === 'string') return body.error.message;
  if (typeof body.message === 'string') return body.message;
  if (typeof body.detail === 'string') return body.detail;
  if (Array.isArray(body.detail)) {
    return body.detail
      .map((item) => (isRecord(item) ? `${Array.isArray(item.loc) ? `${item.loc.join('.')}: ` : ''}${String(item.msg ?? '')}` : String(item)))
      .join('; ');
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
