/**
 * Schema fuzzing over loopback: random operations generated from the gateway's
 * own schema (fields, arguments inline and as variables, aliases, inline and
 * named fragments, queries and mutations, anonymous and signed-in callers) run
 * against the gateway in front of an in-memory sandbox. It counts what must
 * never happen — a crash, an HTTP 5xx, a body that is not GraphQL JSON, an
 * INTERNAL_SERVER_ERROR or a message that leaks a stack — and times
 * `{ __typename }` throughout, so a stalled gateway shows.
 *
 *   npm run fuzz                      (FUZZ_OPS=10000 FUZZ_SEED=1 FUZZ_CONCURRENCY=4)
 *
 * Exits non-zero when anything that must never happen did. Traffic stays on
 * 127.0.0.1 and the run is bounded by FUZZ_OPS.
 */
import {
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLInterfaceType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLUnionType,
  getNamedType,
  isLeafType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type GraphQLSchema,
} from 'graphql';
import { parseConfig } from '../src/config.ts';
import { buildSchema } from '../src/schema.ts';
import { startGateway } from '../src/server.ts';
import { prng } from '../packages/sandbox/src/prng.ts';
import { startSandbox } from '../packages/sandbox/src/server.ts';

const OPS = Number(process.env.FUZZ_OPS ?? 10_000);
const SEED = Number(process.env.FUZZ_SEED ?? 1);
const CONCURRENCY = Number(process.env.FUZZ_CONCURRENCY ?? 4);

class Generator {
  private vars: { name: string; type: string; value: unknown }[] = [];
  private fragments: string[] = [];
  private n = 0;
  constructor(
    private readonly schema: GraphQLSchema,
    private readonly rnd: () => number,
  ) {}

  private pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.rnd() * xs.length)]!;
  }
  chance(p: number): boolean {
    return this.rnd() < p;
  }

  private scalar(t: GraphQLScalarType): unknown {
    switch (t.name) {
      case 'Int':
        return this.pick([0, 1, 2, 3, 5, 10, 25, 50, 100, 500, 501, -1, 2147483647, Math.floor(this.rnd() * 600)]);
      case 'Float':
        return this.pick([0, 1.5, -73.9, 48.8566, 2.3522, 1e9, -1]);
      case 'Boolean':
        return this.chance(0.5);
      case 'ID':
        return this.pick([
          '1',
          '42',
          '201',
          '999999',
          'RXZlbnQ6MjQw',
          'VmVudWU6Mw==',
          'bm90LWFuLWlk',
          '',
          'jazz-night',
          String(Math.floor(this.rnd() * 700)),
        ]);
      case 'DateTime':
        return this.pick([
          '2026-12-01T00:00:00-05:00',
          '2025-01-01T00:00:00Z',
          '1970-01-01T00:00:00Z',
          'not-a-date',
          '2026-11-22T20:00:00+09:00',
        ]);
      case 'JSON':
        return this.pick([{}, { a: 1 }, [1, 2], 'x', null]);
      default:
        return this.pick([
          '',
          'Paris',
          'Harbor',
          'music',
          'https://example.org/',
          '<script>',
          'ü',
          'x'.repeat(300),
          'admin',
          'Europe/Paris',
        ]);
    }
  }

  private value(type: GraphQLInputType, depth: number): unknown {
    if (type instanceof GraphQLNonNull) return this.value(type.ofType, depth);
    if (type instanceof GraphQLList)
      return Array.from({ length: Math.floor(this.rnd() * 4) }, () => this.value(type.ofType, depth));
    if (type instanceof GraphQLEnumType) return this.pick(type.getValues()).value;
    if (type instanceof GraphQLScalarType) return this.scalar(type);
    const obj: Record<string, unknown> = {};
    for (const f of Object.values((type as GraphQLInputObjectType).getFields())) {
      if (f.type instanceof GraphQLNonNull || (depth < 3 && this.chance(0.3)))
        obj[f.name] = this.value(f.type, depth + 1);
    }
    return obj;
  }

  /** A value as GraphQL source text (enums bare, objects with unquoted keys). */
  private literal(type: GraphQLInputType, v: unknown): string {
    if (type instanceof GraphQLNonNull) return this.literal(type.ofType, v);
    if (v === null || v === undefined) return 'null';
    if (type instanceof GraphQLList) return `[${(v as unknown[]).map((x) => this.literal(type.ofType, x)).join(', ')}]`;
    if (type instanceof GraphQLEnumType) return String(v);
    if (type instanceof GraphQLInputObjectType) {
      const fields = type.getFields();
      return `{ ${Object.entries(v as Record<string, unknown>)
        .map(([k, x]) => `${k}: ${this.literal(fields[k]!.type, x)}`)
        .join(', ')} }`;
    }
    if (type instanceof GraphQLScalarType && type.name === 'JSON') return JSON.stringify(JSON.stringify(v));
    return JSON.stringify(v);
  }

  private args(args: readonly GraphQLArgument[]): string {
    const out: string[] = [];
    for (const a of args) {
      if (!(a.type instanceof GraphQLNonNull) && !this.chance(0.35)) continue;
      const v = this.value(a.type, 0);
      if (this.chance(0.3)) {
        const name = `v${this.vars.length}`;
        this.vars.push({ name, type: String(a.type), value: v });
        out.push(`${a.name}: $${name}`);
      } else out.push(`${a.name}: ${this.literal(a.type, v)}`);
    }
    return out.length ? `(${out.join(', ')})` : '';
  }

  private selection(type: GraphQLNamedType, depth: number): string {
    if (isLeafType(type)) return '';
    if (type instanceof GraphQLUnionType || type instanceof GraphQLInterfaceType) {
      const possible = this.schema.getPossibleTypes(type);
      const parts = ['__typename'];
      if (type instanceof GraphQLInterfaceType) parts.push(this.fields(type, depth));
      for (const t of possible) if (this.chance(0.4)) parts.push(`... on ${t.name} { ${this.fields(t, depth)} }`);
      return `{ ${parts.join(' ')} }`;
    }
    const obj = type as GraphQLObjectType;
    if (depth > 1 && this.chance(0.15)) {
      const name = `F${this.fragments.length}`;
      this.fragments.push(`fragment ${name} on ${obj.name} { ${this.fields(obj, depth)} }`);
      return `{ ...${name} }`;
    }
    return `{ ${this.fields(obj, depth)} }`;
  }

  private fields(type: GraphQLObjectType | GraphQLInterfaceType, depth: number): string {
    const all = Object.values(type.getFields()) as GraphQLField<unknown, unknown>[];
    const leaves = all.filter((f) => isLeafType(getNamedType(f.type)));
    const count = 1 + Math.floor(this.rnd() * 4);
    const chosen = new Set<GraphQLField<unknown, unknown>>();
    for (let i = 0; i < count; i++) chosen.add(depth >= 4 && leaves.length ? this.pick(leaves) : this.pick(all));
    if (!chosen.size || [...chosen].every((f) => !isLeafType(getNamedType(f.type)) && depth >= 5)) return '__typename';
    return [...chosen].map((f) => this.field(f, depth + 1)).join(' ');
  }

  private field(f: GraphQLField<unknown, unknown>, depth: number): string {
    const alias = this.chance(0.1) ? `a${this.n++}: ` : '';
    const named = getNamedType(f.type as GraphQLOutputType);
    const sel = isLeafType(named) ? '' : ` ${this.selection(named, depth)}`;
    return `${alias}${f.name}${this.args(f.args)}${sel}`;
  }

  operation(): { query: string; variables: Record<string, unknown>; mutation: boolean } {
    this.vars = [];
    this.fragments = [];
    const mutation = this.chance(0.1);
    const root = mutation ? this.schema.getMutationType()! : this.schema.getQueryType()!;
    const fields = Object.values(root.getFields()) as GraphQLField<unknown, unknown>[];
    const picks = Array.from({ length: 1 + Math.floor(this.rnd() * 3) }, () => this.pick(fields));
    const body = picks.map((f) => this.field(f, 1)).join(' ');
    const decl = this.vars.length ? `(${this.vars.map((v) => `$${v.name}: ${v.type}`).join(', ')})` : '';
    const query = `${mutation ? 'mutation' : 'query'} Fuzz${decl} { ${body} }\n${this.fragments.join('\n')}`;
    return { query, variables: Object.fromEntries(this.vars.map((v) => [v.name, v.value])), mutation };
  }
}

async function main(): Promise<void> {
  const sandbox = await startSandbox({ db: ':memory:', port: 0 });
  const gateway = await startGateway(parseConfig({ port: 0 }), sandbox.url);
  const admin = sandbox.users.find((u) => u.login === 'admin')!;
  const auth = `Basic ${Buffer.from(`${admin.login}:${admin.appPassword}`).toString('base64')}`;
  const gen = new Generator(buildSchema(), prng(SEED));

  const counts = {
    ops: 0,
    http2xx: 0,
    http4xx: 0,
    http5xx: 0,
    badBody: 0,
    internal: 0,
    leaks: 0,
    withErrors: 0,
    networkErrors: 0,
  };
  const codes = new Map<string, number>();
  const samples: string[] = [];
  const upstreamSamples: string[] = [];
  let maxPing = 0;
  let next = 0;
  const t0 = performance.now();

  async function one(): Promise<void> {
    const op = gen.operation();
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (op.mutation || gen.chance(0.3)) headers.authorization = auth;
    let res: Response;
    try {
      res = await fetch(gateway.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ query: op.query, variables: op.variables }),
      });
    } catch (err) {
      counts.networkErrors += 1;
      if (samples.length < 10) samples.push(`network: ${String(err)}\n${op.query}`);
      return;
    }
    counts.ops += 1;
    if (res.status >= 500) counts.http5xx += 1;
    else if (res.status >= 400) counts.http4xx += 1;
    else counts.http2xx += 1;
    const text = await res.text();
    let body: {
      data?: unknown;
      errors?: { message: string; extensions?: { code?: string } & Record<string, unknown> }[];
    };
    try {
      body = JSON.parse(text);
    } catch {
      counts.badBody += 1;
      if (samples.length < 10) samples.push(`not JSON (${res.status}): ${text.slice(0, 200)}\n${op.query}`);
      return;
    }
    if (res.status >= 500 && samples.length < 10)
      samples.push(`HTTP ${res.status}: ${text.slice(0, 300)}\n${op.query}`);
    if (body.errors?.length) counts.withErrors += 1;
    for (const e of body.errors ?? []) {
      const code = e.extensions?.code ?? '(none)';
      codes.set(code, (codes.get(code) ?? 0) + 1);
      // The sandbox answering 5xx to some input is the sandbox's bug: show a few.
      if (code === 'UPSTREAM_ERROR' && upstreamSamples.length < 5)
        upstreamSamples.push(
          `${e.message} ${JSON.stringify(e.extensions)}\n${op.query}\n${JSON.stringify(op.variables)}`,
        );
      if (code === 'INTERNAL_SERVER_ERROR') {
        counts.internal += 1;
        if (samples.length < 10) samples.push(`internal: ${e.message}\n${op.query}\n${JSON.stringify(op.variables)}`);
      }
      // A leaked stack or a JS error class name in a message means something unmasked got out.
      if (/\n\s+at |TypeError|ReferenceError|SyntaxError: Unexpected|Cannot read properties/.test(e.message)) {
        counts.leaks += 1;
        if (samples.length < 10) samples.push(`leak: ${e.message}\n${op.query}`);
      }
    }
  }

  const workers = Array.from({ length: CONCURRENCY }, async () => {
    while (next < OPS) {
      next += 1;
      await one();
    }
  });
  // The gateway stays responsive: a gateway-only query every 250 ms, timed.
  let done = false;
  const pinger = (async () => {
    while (!done) {
      const t = performance.now();
      await fetch(gateway.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"query":"{ __typename }"}',
      });
      maxPing = Math.max(maxPing, performance.now() - t);
      await new Promise((r) => setTimeout(r, 250));
    }
  })();
  await Promise.all(workers);
  done = true;
  await pinger;
  const seconds = (performance.now() - t0) / 1000;

  console.log(
    `sitegraph fuzz: ${counts.ops} operations (seed ${SEED}, concurrency ${CONCURRENCY}) in ${seconds.toFixed(1)} s`,
  );
  console.log(
    `  HTTP 2xx ${counts.http2xx}, 4xx ${counts.http4xx}, 5xx ${counts.http5xx}; network errors ${counts.networkErrors}; bodies not GraphQL JSON ${counts.badBody}`,
  );
  console.log(
    `  responses with errors ${counts.withErrors}; INTERNAL_SERVER_ERROR ${counts.internal}; leaked internals ${counts.leaks}`,
  );
  console.log(
    `  error codes: ${[...codes.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([c, n]) => `${c} ${n}`)
      .join(', ')}`,
  );
  console.log(`  slowest { __typename } during the run: ${maxPing.toFixed(1)} ms`);
  for (const s of samples) console.log(`\n--- ${s}`);
  for (const s of upstreamSamples) console.log(`\n--- upstream 5xx: ${s}`);
  await gateway.close();
  await sandbox.close();
  const bad = counts.http5xx + counts.badBody + counts.internal + counts.leaks + counts.networkErrors;
  process.exit(bad === 0 ? 0 : 1);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
