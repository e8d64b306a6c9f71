/**
 * Nothing an operation read outlives it. Timers started inside a request
 * (AbortSignal.timeout's 15 s deadline) keep its async scope, the log scope,
 * alive after the answer; when that scope held the request's context, every
 * model of every operation stayed in memory for 15 s (~160 KB per W1), which
 * at a few hundred requests a second is gigabytes.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/gateway.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const W1 = `{ events(first: 20) { totalCount nodes { title startDate venues { title city } organizers { title } } } }`;

describe('memory per operation', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  const heapAfter = async (n: number) => {
    for (let i = 0; i < n; i++) expect((await h.gql(W1)).errors).toBeUndefined();
    gc();
    gc();
    return process.memoryUsage().heapUsed;
  };

  it('stays flat over 300 operations inside their deadline (no model kept by the request scope)', async () => {
    const before = await heapAfter(50);
    const after = await heapAfter(300);
    // Retained, 300 operations of 20 events with venues and organizers were ~48 MB.
    expect((after - before) / 1e6).toBeLessThan(15);
    // 350 operations one after another: more than the default 30 s on a loaded 2-core machine.
  }, 120_000);
});
