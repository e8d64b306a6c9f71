import { clearRouteLogs } from './helpers/route-log.ts';

/** A fresh run starts with no route logs of earlier runs. */
export default function setup(): void {
  clearRouteLogs();
}
