/** A logger whose lines a test reads back (JSON, as written). */
import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../src/log.ts';

export interface Captured {
  logger: Logger;
  /** Every line as written. */
  text(): string;
  lines(): Record<string, any>[];
  clear(): void;
}

export function captureLog(level: 'trace' | 'info' = 'trace'): Captured {
  let out = '';
  const destination = new Writable({
    write(chunk, _enc, done) {
      out += String(chunk);
      done();
    },
  });
  return {
    logger: createLogger({ level, format: 'json', destination }),
    text: () => out,
    lines: () =>
      out
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, any>),
    clear: () => {
      out = '';
    },
  };
}
