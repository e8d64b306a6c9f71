/**
 * The gateway's lifecycle (src/lifecycle.ts): what was opened is closed in the
 * reverse order, once however often close is called, and a part that fails to
 * close does not keep the others open.
 */
import { describe, expect, it } from 'vitest';
import { Lifecycle } from '../src/lifecycle.ts';

describe('Lifecycle', () => {
  it('closes the last opened first, waiting for each, and only once', async () => {
    const l = new Lifecycle();
    const order: string[] = [];
    l.add('redis', () => order.push('redis'));
    l.add('client', async () => {
      await new Promise((r) => setTimeout(r, 20));
      order.push('client');
    });
    l.add('listener', () => order.push('listener'));
    await Promise.all([l.close(), l.close()]);
    await l.close();
    expect(order).toEqual(['listener', 'client', 'redis']);
  });

  it('closes the rest when one part fails, then reports the failure with its name', async () => {
    const l = new Lifecycle();
    const order: string[] = [];
    l.add('redis', () => order.push('redis'));
    l.add('client', () => {
      throw new Error('boom');
    });
    l.add('listener', () => order.push('listener'));
    await expect(l.close()).rejects.toThrow('closing client: boom');
    expect(order).toEqual(['listener', 'redis']);
  });
});
