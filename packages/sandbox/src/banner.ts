/** What `npm run sandbox` and `npm start` print about the sandbox: its URL and every credential. */
import { extrasCredentials } from './namespaces/extras/index.ts';
import { describeNames } from './names.ts';
import { describeRelease } from './release.ts';
import type { RunningSandbox } from './server.ts';

export function sandboxBanner(sb: RunningSandbox): string {
  const lines = [`sandbox REST root: ${sb.url}`, 'credentials (HTTP Basic: login + application password):'];
  for (const u of sb.users) lines.push(`  ${u.login.padEnd(12)} ${u.role.padEnd(14)} ${u.appPassword}`);
  const x = extrasCredentials(sb.site);
  if (x.zapier.length || x.powerAutomate.length) lines.push('automation connectors:');
  for (const c of x.zapier)
    lines.push(
      `  automation-a "${c.name}" (as ${c.user}): consumer_id=${c.consumerId} consumer_secret=${c.consumerSecret}`,
    );
  for (const c of x.powerAutomate)
    lines.push(`  automation-b "${c.name}" (as ${c.user}): access_token=${c.accessToken ?? ''}`);
  if (x.aggregatorImports.length) lines.push('aggregator imports:');
  for (const i of x.aggregatorImports)
    lines.push(
      `  ${i.importId} ${i.status}${i.nextBatchHash ? ` batch_hash=${i.nextBatchHash}` : ''}${i.locked ? ' (locked)' : ''}`,
    );
  // The real-site behaviours the options choose (options.ts: tec, names, wrongPassword, calendarBatchable, tickets).
  const o = sb.site.options;
  lines.push(`acts as: ${describeRelease(o.tec)}`);
  lines.push(`namespace names: ${describeNames(o.names)}`);
  lines.push(
    `calendar-core writes ${o.calendarBatchable && o.batchable ? '' : 'not '}batchable; ` +
      `wrong application password ${o.wrongPassword === 'error' ? '401 incorrect_password (WordPress 6.8)' : 'treated as anonymous (WordPress 6.1)'}; ` +
      `undeclared arguments dropped${o.strictArgs ? ' and printed' : ''} (request log: undeclared); ` +
      `Event Tickets ${o.tickets ? 'active (tribe/tickets/v1 listed, ticketed applied)' : 'not active (ticketed declared, refused or ignored)'}`,
  );
  lines.push(
    `nonces (with Basic auth): ${x.nonces.views}, ${x.nonces.wizard}, ${sb.origin}/wp-admin/admin-ajax.php?action=rest-nonce`,
  );
  return lines.join('\n');
}
