/**
 * The core/v2 rows of the route table: the posts' routes are hand-written
 * (requests.ts says why), so their rows are written here, checked against the
 * schema's fields.
 */
import { use, type RouteUse } from '../../routes/route-use.ts';

export const POSTS_ROWS: RouteUse[] = [
  { method: 'GET', path: '/core/v2/posts', field: ['Query.posts', use('Query.node', { type: 'Post' })] },
  { method: 'POST', path: '/core/v2/posts', field: ['Mutation.createPost', use('Mutation.createPosts', { note: 'one /batch/v1 item per post where the site allows' })] },
];
