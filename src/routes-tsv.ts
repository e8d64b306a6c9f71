/**
 * spec/routes.tsv (the repository's copy of the contract's route list, see
 * spec/README.md), and the matching of WordPress route patterns to its rows.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const ROUTES_TSV = fileURLToPath(new URL('../spec/routes.tsv', import.meta.url));

export interface SpecRoute {
  method: string;
  path: string;
  namespace: string;
}

export function readSpecRoutes(file = ROUTES_TSV): SpecRoute[] {
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => {
      const [method = '', path = '', namespace = ''] = line.split('\t');
      return { method, path, namespace };
    });
}

/** `/events/(?P<id>[\d]+)` -> `/events/<id>`: WordPress patterns in the spec's notation. */
export function specPath(pattern: string): string {
  return pattern.replace(/\(\?P<([A-Za-z_]+)>[^()]*(\([^()]*\)[^()]*)*\)/g, '<$1>');
}
