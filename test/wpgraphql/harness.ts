/**
 * The compatible graph on a loopback port in front of a sandbox, as the gateway would mount it: the main graph's
 * upstream client, the site's index, one main-graph context per operation (src/context.ts), and the handler of
 * src/wpgraphql/handler.ts. Upstream calls are counted from the sandbox's request log.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseConfig } from '../../src/config.ts';
import { createContext } from '../../src/context.ts';
import { SiteState } from '../../src/site.ts';
import { UpstreamClient } from '../../src/upstream/client.ts';
import { toSpecPath } from '../../src/upstream/names.ts';
import { createWpGraphqlHandler } from '../../src/wpgraphql/handler.ts';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import type { SandboxOptionsInput } from '../../packages/sandbox/src/options.ts';
import type { LogEntry } from '../../packages/sandbox/src/requestlog.ts';
import { testSandbox } from '../helpers/sandbox.ts';

export interface WpResult {
  status: number;
  data: any;
  errors?: { message: string; path?: (string | number)[]; extensions?: Record<string, any> }[];
}

export interface WpHarness {
  sandbox: RunningSandbox;
  url: string;
  gql(query: string, variables?: Record<string, unknown>, operationName?: string): Promise<WpResult>;
  /** Upstream requests since the last mark(), paths in the spec's names. */
  calls(): LogEntry[];
  mark(): void;
  close(): Promise<void>;
}

export async function startWpHarness(sandboxOptions: SandboxOptionsInput = {}): Promise<WpHarness> {
  const sandbox = await testSandbox(sandboxOptions);
  const config = parseConfig({ port: 0, cache: { ttlSeconds: 0 } });
  const client = new UpstreamClient({ baseUrl: sandbox.url, ...config.upstream });
  const site = new SiteState(client);
  await site.refresh();
  const handler = createWpGraphqlHandler({
    context: async (req) =>
      createContext({
        config,
        client,
        site: await site.current(),
        authorization: req.headers.authorization,
      }),
  });
  const server: Server = createServer((req, res) => {
    handler(req, res).then(
      (handled) => {
        if (!handled) res.writeHead(404).end();
      },
      (err: unknown) => {
        res.writeHead(500).end(String(err));
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/wpgraphql`;
  let from = sandbox.log.entries.length;
  return {
    sandbox,
    url,
    async gql(query, variables, operationName) {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query, variables, operationName }),
      });
      const body = (await res.json()) as Omit<WpResult, 'status'>;
      return { status: res.status, ...body };
    },
    calls: () => sandbox.log.entries.slice(from).map((e) => ({ ...e, path: toSpecPath(e.path) })),
    mark: () => {
      from = sandbox.log.entries.length;
    },
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await client.close();
      await sandbox.close();
    },
  };
}
