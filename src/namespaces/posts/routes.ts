/**
 * The core/v2 rows of the route table: the posts' routes are hand-written
 * (requests.ts says why), so their rows are written here, checked against the
 * schema's fields.
 */
import { rowOf, use, type RouteUse } from '../../routes/route-use.ts';
import { POSTS_CREATE, POSTS_LIST } from './requests.ts';

export const POSTS_ROWS: RouteUse[] = [
  rowOf(POSTS_LIST, ['Query.posts', use('Query.node', { type: 'Post' })]),
  rowOf(POSTS_CREATE, [
    'Mutation.createPost',
    use('Mutation.createPosts', { note: 'one /batch/v1 item per post where the site allows' }),
  ]),
];
