/** What `npm run sandbox` and `npm start` print about the sandbox: its URL and every credential. */
import { extrasCredentials } from './namespaces/extras/index.ts';
import type { RunningSandbox } from './server.ts';

export function sandboxBanner(sb: RunningSandbox): string {
  const lines = [`sandbox REST root: ${sb.url}`, 'credentials (HTTP Basic: login + application password):'];
  for (const u of sb.users) lines.push(`  ${u.login.padEnd(12)} ${u.role.padEnd(14)} ${u.appPassword}`);
  const x = extrasCredentials(sb.site);
  if (x.zapier.length || x.powerAutomate.length) lines.push('automation connectors:');
  for (const c of x.zapier) lines.push(`  automation-a "${c.name}" (as ${c.user}): consumer_id=${c.consumerId} consumer_secret=${c.consumerSecret}`);
  for (const c of x.powerAutomate) lines.push(`  automation-b "${c.name}" (as ${c.user}): access_token=${c.accessToken ?? ''}`);
  if (x.aggregatorImports.length) lines.push('aggregator imports:');
  for (const i of x.aggregatorImports) lines.push(`  ${i.importId} ${i.status}${i.nextBatchHash ? ` batch_hash=${i.nextBatchHash}` : ''}${i.locked ? ' (locked)' : ''}`);
  lines.push(`nonces (with Basic auth): ${x.nonces.views}, ${x.nonces.wizard}, ${sb.origin}/wp-admin/admin-ajax.php?action=rest-nonce`);
  return lines.join('\n');
}
