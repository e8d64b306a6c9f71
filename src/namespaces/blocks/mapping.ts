/** Pure mapping of site-blocks/v1/get-attachment-id. */
import { idOf, int, isJson, obj, str, type Json } from '../../mapping/json.ts';

export interface AttachmentLookupModel {
  databaseId: number;
  url: string | null;
  width: number | null;
  height: number | null;
  sizes: { name: string; url: string | null; width: number | null; height: number | null }[];
  raw: unknown;
}

/**
 * GenerateBlocks-style `{success: true, response: {id, full_url, width, height, sizes}}` (docs/upstream-answers.md
 * "GenerateBlocks-style bodies").
 */
export function attachmentLookup(body: unknown): AttachmentLookupModel {
  const o = obj(body, 'attachment lookup');
  const r = obj(o.response, 'attachment lookup response');
  const sizes = isJson(r.sizes) ? r.sizes : {};
  return {
    databaseId: idOf(r, 'attachment'),
    url: str(r.full_url),
    width: int(r.width),
    height: int(r.height),
    sizes: Object.entries(sizes)
      .filter(([, s]) => typeof s === 'object' && s !== null)
      .map(([name, s]) => ({
        name,
        url: str((s as Json).url),
        width: int((s as Json).width),
        height: int((s as Json).height),
      })),
    raw: body,
  };
}
