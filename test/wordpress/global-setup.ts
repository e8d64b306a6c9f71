/**
 * Starts the real WordPress once for the tier (scripts/wordpress/start.sh: a
 * fresh install in .wordpress/) and stops it afterwards (stop.sh).
 * `WORDPRESS_KEEP=1` leaves it running for a look around (stop it with
 * scripts/wordpress/stop.sh).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './site.ts';

const script = (name: string) => join(ROOT, 'scripts', 'wordpress', name);

export default function setup(): () => void {
  execFileSync('bash', [script('start.sh')], { stdio: ['ignore', 'ignore', 'inherit'], timeout: 600_000 });
  return () => {
    if (process.env.WORDPRESS_KEEP === '1') return;
    execFileSync('bash', [script('stop.sh')], { stdio: ['ignore', 'ignore', 'inherit'], timeout: 60_000 });
  };
}
