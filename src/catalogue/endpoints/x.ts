import { cursor, endpoint, limit, text } from '../fields.js';

export const X = {
  post: endpoint({
    id: 'x.post',
    title: 'X post',
    summary: 'Returns a post on X with its author, text, media and engagement counts, and a page of its replies.',
    credits: 1,
    cacheTtlSeconds: 600,
    fields: {
      // SPEC: bounds not stated; chosen 1-2048 (a post id or a full address).
      post: text(1, 2048, 'post id or address'),
      // SPEC: "optional digits followed by `~`, then 16-16000 characters from letters, digits, + / _ = -". Read
      // as an optional `<digits>~` prefix (the digits themselves may be empty), then the opaque part.
      cursor: cursor(
        '^(?:[0-9]*~)?[A-Za-z0-9+/_=-]{16,16000}$',
        'optional digits and ~, then 16-16000 letters, digits or + / _ = -',
        16064,
      ),
    },
    required: ['post'],
    example: { post: 'https://x.com/nasa/status/1790000000000000000' },
  }),
  search: endpoint({
    id: 'x.search',
    title: 'X search',
    summary: 'Searches posts on X and returns the matches with author, text and engagement counts.',
    credits: 1,
    cacheTtlSeconds: 1800,
    fields: {
      query: text(1, 200, 'search terms; X search operators allowed'),
      limit: limit(1, 20, 20),
    },
    required: ['query'],
    example: { query: 'from:nasa artemis', limit: 20 },
  }),
};
