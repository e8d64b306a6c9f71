/**
 * The demo `npm start` serves (the embedded sandbox), run as a user runs it:
 * the same data on every start and in every instance, a write seen only by the
 * instance that made it and gone after a restart; `SANDBOX_DB=<file>` keeps it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_APP_PASSWORD } from '../packages/sandbox/src/options.ts';
import { GATEWAY_CLI, startCli, type RunningCli } from './helpers/cli.ts';

// The day the demo is laid around, fixed so two starts either side of midnight UTC agree.
const ENV = { SANDBOX_ANCHOR: '2026-11-22' };
const ADMIN = `Basic ${Buffer.from(`admin:${DEFAULT_APP_PASSWORD}`).toString('base64')}`;

async function gql(cli: RunningCli, query: string, variables: Record<string, unknown> = {}) {
  const res = await fetch(cli.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: ADMIN },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { data?: any; errors?: unknown[] };
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data;
}

const DEMO = `{ events(first: 30) { totalCount nodes { databaseId title startDate venues { title } } } venues(first: 5) { nodes { title } } }`;
const CREATE = `mutation($t: String!) { createEvent(input: { title: $t, startDate: "2031-06-02T09:00:00Z", endDate: "2031-06-02T10:00:00Z" }) { event { databaseId } } }`;
const READ = `query($id: ID!) { event(id: $id, idType: DATABASE_ID) { title } }`;

async function createEvent(cli: RunningCli, title: string): Promise<number> {
  return (await gql(cli, CREATE, { t: title })).createEvent.event.databaseId as number;
}
const titleOf = async (cli: RunningCli, id: number) =>
  ((await gql(cli, READ, { id: String(id) })).event?.title as string | undefined) ?? null;

describe('npm start: the demo site', () => {
  const running: RunningCli[] = [];
  const start = async (env: Record<string, string> = {}) => {
    const cli = await startCli(GATEWAY_CLI, ['--port', '0'], { ...ENV, ...env });
    running.push(cli);
    return cli;
  };
  afterAll(async () => {
    await Promise.all(running.map((c) => c.stop()));
  }, 60_000);

  it('serves the same data in every instance and after a restart; a write stays in its instance and run', async () => {
    const [a, b] = await Promise.all([start(), start()]);
    const demo = await gql(a, DEMO);
    expect(demo.events.nodes.length).toBe(30);
    expect(await gql(b, DEMO)).toEqual(demo);

    const id = await createEvent(a, 'Written in instance A');
    expect(await titleOf(a, id)).toBe('Written in instance A');
    expect(await titleOf(b, id)).toBeNull();

    expect(await a.stop()).toBe(0);
    const again = await start();
    expect(await titleOf(again, id)).toBeNull();
    expect(await gql(again, DEMO)).toEqual(demo);
  }, 300_000);

  it('keeps writes across restarts in SANDBOX_DB=<file>', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'sitegraph-demo-')), 'site.sqlite');
    const first = await start({ SANDBOX_DB: db });
    const id = await createEvent(first, 'Kept in the file');
    expect(await first.stop()).toBe(0);
    const second = await start({ SANDBOX_DB: db });
    expect(await titleOf(second, id)).toBe('Kept in the file');
  }, 300_000);
});
