/**
 * What a running gateway holds open, in the order it was opened: shut in the
 * reverse order, once, by `close()` — when the gateway stops, and when its
 * start fails halfway (what was opened so far is closed, nothing leaks).
 */
export class Lifecycle {
  readonly #open: { name: string; close: () => unknown }[] = [];
  #closing: Promise<void> | null = null;

  /** Registers something just opened; `close` may be async. */
  add(name: string, close: () => unknown): void {
    this.#open.push({ name, close });
  }

  /** Closes everything registered, last opened first; a failure is reported after the rest is closed. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      const errors: unknown[] = [];
      for (const { name, close } of this.#open.splice(0).reverse()) {
        try {
          await close();
        } catch (err) {
          errors.push(
            Object.assign(new Error(`closing ${name}: ${(err as Error)?.message ?? String(err)}`), { cause: err }),
          );
        }
      }
      if (errors.length === 1) throw errors[0];
      if (errors.length) throw new AggregateError(errors, `closing the gateway: ${errors.length} parts failed`);
    })();
    return this.#closing;
  }
}
