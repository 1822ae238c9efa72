/**
 * The streams a command reads and writes. `main` takes them as arguments so that tests and
 * embedders can run the CLI in-process with string streams instead of the process's own.
 */
export interface CliStreams {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
}
