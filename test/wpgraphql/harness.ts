/**
 * The gateway in front of a sandbox, as a user runs it, with the compatible graph at /wpgraphql (WPGRAPHQL_PATH's
 * default). Upstream calls are counted from the sandbox's request log.
 */
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import type { SandboxOptionsInput } from '../../packages/sandbox/src/options.ts';
import type { LogEntry } from '../../packages/sandbox/src/requestlog.ts';
import { startHarness } from '../helpers/gateway.ts';
import type { Who } from '../helpers/sandbox.ts';

export interface WpResult {
  status: number;
  data: any;
  errors?: { message: string; path?: (string | number)[]; extensions?: Record<string, any> }[];
}

export interface WpHarness {
  sandbox: RunningSandbox;
  url: string;
  /** `who`: a sandbox user whose application password is sent (Basic); anonymous without. */
  gql(query: string, variables?: Record<string, unknown>, operationName?: string, who?: Who): Promise<WpResult>;
  /** Upstream requests since the last mark(), paths in the spec's names. */
  calls(): LogEntry[];
  mark(): void;
  close(): Promise<void>;
}

export async function startWpHarness(sandboxOptions: SandboxOptionsInput = {}): Promise<WpHarness> {
  const h = await startHarness({ sandbox: sandboxOptions });
  const url = new URL('/wpgraphql', h.gateway.url).href;
  return {
    sandbox: h.sandbox,
    url,
    async gql(query, variables, operationName, who = null) {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(who ? { authorization: h.auth(who) } : {}) },
        body: JSON.stringify({ query, variables, operationName }),
      });
      const body = (await res.json()) as Omit<WpResult, 'status'>;
      return { status: res.status, ...body };
    },
    calls: () => h.calls(),
    mark: () => h.mark(),
    close: () => h.close(),
  };
}
