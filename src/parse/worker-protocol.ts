/**
 * What the pool and a conversion worker process say to each other (over the IPC channel of `child_process.fork`,
 * with the structured-clone serialisation, so file bytes travel as bytes).
 */
import type { ParseErrorKind, ParseResult } from './types.js';

/** Given once, as the worker's only argument (JSON). */
export interface WorkerSettings {
  /** Distinct number formats the worker may hold parsed before it asks to be retired. */
  formatCacheLimit: number;
  /** Bytes a PDF's streams may decode to in all. */
  maxDecodedBytes: number;
  /** Memory outside the heap the worker may hold; past it, it exits with `EXIT_OUT_OF_MEMORY`. */
  externalLimitBytes: number;
}

export interface ConvertRequest {
  id: number;
  bytes: Uint8Array;
  maxPages: number;
}

export interface ConvertAnswer {
  id: number;
  result?: ParseResult;
  error?: { kind: ParseErrorKind; message: string };
  /** The worker holds more than the pool allows between files: replace it (its answer stands). */
  retire?: boolean;
}

/** The exit code of a worker that stopped itself past its allowance of memory outside the heap. */
export const EXIT_OUT_OF_MEMORY = 86;
