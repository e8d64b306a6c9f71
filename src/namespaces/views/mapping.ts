/**
 * calendar/views/v2 answers -> graph objects: the rendered HTML and the nonce pair it embeds (docs/sandbox-extras.md).
 * Pure.
 */
import { isJson, strict as str } from '../../mapping/json.ts';

/** The nonce pair a rendered view embeds for the next request (TEC's `tribe-events-view-nonce-data`). */
export function viewNonces(html: string): { tvn1: string | null; tvn2: string | null } | null {
  const m = /<script[^>]*data-js=['"]tribe-events-view-nonce-data['"][^>]*>([\s\S]*?)<\/script>/.exec(html);
  if (!m) return null;
  try {
    const o = JSON.parse(m[1]!) as unknown;
    return isJson(o) ? { tvn1: str(o.tvn1), tvn2: str(o.tvn2) } : null;
  } catch {
    return null;
  }
}

/** `{html}` (TEC 6.11.1+), or the bare HTML older sites send. */
export function viewHtmlOf(body: unknown): string | null {
  if (isJson(body) && typeof body.html === 'string') return body.html;
  return typeof body === 'string' ? body : null;
}
