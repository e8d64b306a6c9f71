/**
 * `npm run routes`: every row of spec/routes.tsv -> the GraphQL field that
 * reaches it, `covered N/192` (rows with a field), and how many the last
 * `npm test` run proved reached through the gateway (under either name: the
 * sandboxes that serve the plugins' names log `/tribe/events/v1/...`).
 * `npm run routes -- --plugin-names` adds each row's path on a site that serves
 * the plugins' own names (docs/real-sites.md, "Namespace names").
 */
import { relative } from 'node:path';
import { ROUTES_TSV, readSpecRoutes, specPath, type SpecRoute } from '../src/routes-tsv.ts';
import { toSpecPath } from '../src/upstream/names.ts';
import { ROUTE_TABLE, pluginPathOf } from '../src/namespaces/route-table.ts';
import { fieldText } from '../src/routes/route-use.ts';
import { readRouteLogs } from '../test/helpers/route-log.ts';

let rows: SpecRoute[];
try {
  rows = readSpecRoutes();
} catch (err) {
  // A one-line answer, not a stack: the file ships with the repository, so this is a broken checkout.
  console.error(
    `routes: cannot read ${relative(process.cwd(), ROUTES_TSV)}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
  );
  process.exit(2);
}
const fields = new Map<string, string[]>();
for (const r of ROUTE_TABLE) {
  const k = `${r.method} ${r.path}`;
  fields.set(k, [...(fields.get(k) ?? []), fieldText(r.field)]);
}
const reached = new Set(
  readRouteLogs()
    .filter((c) => c.route)
    .map((c) => `${c.method} ${specPath(toSpecPath(c.route!))}`),
);
const withPluginNames = process.argv.includes('--plugin-names');
let covered = 0;
let proven = 0;
const width = Math.max(...rows.map((r) => r.method.length + r.path.length + 1));
const pluginWidth = Math.max(...rows.map((r) => pluginPathOf(r.path).length));
for (const r of rows) {
  const k = `${r.method} ${r.path}`;
  const f = fields.get(k);
  if (f) covered += 1;
  if (reached.has(k)) proven += 1;
  const plugin = withPluginNames
    ? `${(pluginPathOf(r.path) === r.path ? '' : pluginPathOf(r.path)).padEnd(pluginWidth)}  `
    : '';
  console.log(`${reached.has(k) ? '✓' : ' '} ${k.padEnd(width)}  ${plugin}${f ? f.join('; ') : '— NOT REACHABLE —'}`);
}
console.log(`\ncovered ${covered}/${rows.length}`);
console.log(
  reached.size
    ? `reached through the gateway in the last test run: ${proven}/${rows.length}`
    : 'run `npm test` to see which rows the end-to-end tests reached',
);
process.exitCode = covered === rows.length ? 0 : 1;
