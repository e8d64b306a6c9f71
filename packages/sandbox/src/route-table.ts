/**
 * The route table as the options shape it (site.ts): every namespace's
 * declarations, less what the release lacks (release.ts), then under the
 * names served (names.ts). Both steps key on the spec's names, so the release
 * applies first.
 */
import { isRenamed, pluginNamespace, pluginPath, type Names } from './names.ts';
import { DROPS, type Tec } from './release.ts';
import type { RouteDecl } from './rest/types.ts';

/** The route table as `tec` declares it: endpoints without the arguments the release lacks. */
export function releaseRoutes(routes: readonly RouteDecl[], tec: Tec): RouteDecl[] {
  const drops = DROPS[tec];
  if (!drops.length) return [...routes];
  return routes.map((decl) => {
    const mine = drops.filter((d) => d.route === decl.path);
    if (!mine.length) return decl;
    const endpoints = decl.endpoints.map((ep) => {
      const gone = new Set(mine.filter((d) => ep.methods.some((m) => d.methods.includes(m))).flatMap((d) => d.args));
      if (!gone.size) return ep;
      return { ...ep, args: Object.fromEntries(Object.entries(ep.args).filter(([name]) => !gone.has(name))) };
    });
    return { ...decl, endpoints };
  });
}

/**
 * The route table under `names`: each declaration of a renamed namespace is
 * replaced (`plugin`) or followed (`both`) by a copy under the plugin's name
 * that shares its endpoints. Namespace indexes (`path` = `/<namespace>`) are
 * left alone: root.ts declares one per served name.
 */
export function aliasRoutes(routes: readonly RouteDecl[], names: Names): RouteDecl[] {
  if (names === 'spec') return [...routes];
  const out: RouteDecl[] = [];
  for (const decl of routes) {
    if (!isRenamed(decl.namespace) || decl.path === `/${decl.namespace}`) {
      out.push(decl);
      continue;
    }
    const alias: RouteDecl = {
      ...decl,
      namespace: pluginNamespace(decl.namespace),
      path: pluginPath(decl.path),
      spec: decl,
    };
    if (names === 'both') out.push(decl);
    out.push(alias);
  }
  return out;
}
