/**
 * Post statuses on the legacy interface: which ones a caller may list
 * (`Archive_Base::filter_post_status_list`) and which one a write ends up with
 * (`Base::scale_back_post_status`).
 */
import { can, type User } from '../../auth.ts';
import { parseList } from '../../rest/validate.ts';

/** WordPress's registered statuses (`$wp_post_statuses`), which `status` values must be among. */
export const REGISTERED_STATUSES = [
  'publish',
  'future',
  'draft',
  'pending',
  'private',
  'trash',
  'auto-draft',
  'inherit',
];

/** WP_Query's `post_status=any`: every status but trash and auto-draft (the ones excluded from search). */
export const ANY_STATUSES = ['publish', 'future', 'draft', 'pending', 'private'];

/**
 * Who lists every status by default and may ask for any. TEC tests the post
 * type's `edit_posts`; the sandbox reserves it to editors and administrators
 * (`edit_others_posts`), so authors and contributors never list other people's
 * drafts.
 */
export function isEditor(user: User | null): boolean {
  return can(user, 'edit_others_posts');
}

/** The `status` argument, CSV or array. */
export function statusList(value: unknown): string[] {
  return parseList(value).map(String);
}

/**
 * `filter_post_status_list` as a validate callback: non-editors may only ask
 * for `publish`; editors may ask for any registered status. Anything else is a
 * 400 "Invalid parameter.".
 */
export function validStatusList(value: unknown, user: User | null): boolean {
  const list = statusList(value);
  if (!list.length) return false;
  if (!isEditor(user)) return list.length === 1 && list[0] === 'publish';
  return list.every((s) => REGISTERED_STATUSES.includes(s));
}

/**
 * `scale_back_post_status`: callers who may publish get what they asked for,
 * `publish` when they asked for nothing; others see `publish`/`future` become
 * `pending` and nothing become `draft`. TEC applies it on create and on every
 * update alike, so an update without `status` publishes a publisher's draft.
 */
export function scaleBackStatus(requested: unknown, user: User | null): string {
  const status = typeof requested === 'string' ? requested : '';
  if (can(user, 'publish_posts')) return status || 'publish';
  if (status === 'publish' || status === 'future') return 'pending';
  return status || 'draft';
}
