/**
 * Test helpers: a sandbox on a free loopback port with an in-memory database,
 * and a tiny REST client that speaks to it over real HTTP.
 */
import * as sandboxPackage from '../../packages/sandbox/src/index.ts';
import { startSandbox, type RunningSandbox } from '../../packages/sandbox/src/server.ts';
import type { SandboxModule } from '../../src/demo.ts';
import type { SandboxOptionsInput } from '../../packages/sandbox/src/options.ts';
import { TEC_EEA } from '../../packages/sandbox/src/namespaces/core/experimental.ts';
import { newRouteLogFile } from './route-log.ts';

export type Who = 'admin' | 'editor' | 'author' | 'contributor' | 'subscriber' | null;

const started: RunningSandbox[] = [];

/** A sandbox for a test; its request log goes to the run's route logs (route-log.ts) unless the test names a file. */
export async function testSandbox(options: SandboxOptionsInput = {}): Promise<RunningSandbox> {
  const sb = await startSandbox({ db: ':memory:', port: 0, requestLog: newRouteLogFile(), ...options });
  started.push(sb);
  return sb;
}

/** Every sandbox testSandbox started in this test file (test/setup-file.ts reads their logs). */
export function startedSandboxes(): readonly RunningSandbox[] {
  return started;
}

export interface Reply<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RestClient {
  get<T = any>(path: string, who?: Who, headers?: Record<string, string>): Promise<Reply<T>>;
  send<T = any>(
    method: string,
    path: string,
    body?: unknown,
    who?: Who,
    headers?: Record<string, string>,
  ): Promise<Reply<T>>;
  auth(who: Exclude<Who, null>): string;
}

/** The experimental-endpoint acknowledgement calendar-core/v1 requires (calendar-upstream.md §2). */
export { TEC_EEA };

export function restClient(sb: RunningSandbox): RestClient {
  const auth = (who: Exclude<Who, null>) => {
    const u = sb.users.find((x) => x.login === who)!;
    return `Basic ${Buffer.from(`${u.login}:${u.appPassword}`).toString('base64')}`;
  };
  const send = async (
    method: string,
    path: string,
    body?: unknown,
    who: Who = null,
    headers: Record<string, string> = {},
  ) => {
    const h: Record<string, string> = { ...headers };
    if (who) h.authorization = auth(who);
    if (body !== undefined) h['content-type'] = 'application/json';
    if (path.startsWith('/calendar-core/v1') && !('x-tec-eea' in h)) h['x-tec-eea'] = TEC_EEA;
    const res = await fetch(`${sb.origin}/wp-json${path}`, {
      method,
      headers: h,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON (HTML documents, empty bodies) */
    }
    return { status: res.status, headers: res.headers, body: parsed as any, text };
  };
  return {
    get: (path, who = null, headers = {}) => send('GET', path, undefined, who, headers),
    send,
    auth,
  };
}

/** The sandbox package fits what the gateway's demo (src/demo.ts) loads from it, checked by the typecheck. */
sandboxPackage satisfies SandboxModule;
