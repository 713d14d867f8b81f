/** POST /v1/search (videos, channels, playlists, shorts) and POST /v1/suggest (autocomplete). */
import { choice, country, list, plainCursor, text } from '../../catalogue/fields.js';
import { orNull, paging } from '../format.js';
import { legacyBody, type LegacyPath } from '../types.js';
import { legacyListVideo } from '../youtube-views.js';

/** Legacy content types → youtube.search's `type`. */
const TYPE = { video: 'videos', channel: 'channels', playlist: 'playlists', shorts: 'shorts', all: 'all' } as const;
const FEATURES = ['360', 'live', '4k', 'hd', 'subtitles', 'creativeCommons', 'vr180', '3d', 'hdr'] as const;

interface SearchBody {
  q: string;
  type: keyof typeof TYPE;
  sortBy: 'relevance' | 'top';
  uploadDate: 'hour' | 'day' | 'week' | 'month' | 'year' | 'all';
  duration: 'all' | 'short' | 'medium' | 'long';
  features: (typeof FEATURES)[number][];
  continuationToken?: string;
}

export const searchPath: LegacyPath<SearchBody> = {
  name: 'search',
  summary: 'Searches YouTube for videos, channels, playlists or shorts, with content type, sort, upload date, duration and feature filters.',
  input: legacyBody(
    {
      q: text(1, 400, 'search terms'),
      type: { ...choice(Object.keys(TYPE), 'video'), description: 'content type: video, channel, playlist, shorts or all' },
      sortBy: { ...choice(['relevance', 'top'], 'relevance'), description: 'sort order' },
      uploadDate: { ...choice(['hour', 'day', 'week', 'month', 'year', 'all'], 'all'), description: 'upload date window' },
      duration: choice(['all', 'short', 'medium', 'long'], 'all'),
      features: list(choice(FEATURES), 9, []),
      continuationToken: plainCursor(1, 4096),
    },
    ['q'],
  ),
  endpoints: ['youtube.search'],
  fieldNames: { query: 'q', sort: 'sortBy', within: 'uploadDate', cursor: 'continuationToken' },
  route: (b) => ({
    endpoint: 'youtube.search',
    input: {
      query: b.q,
      type: TYPE[b.type],
      sort: b.sortBy,
      within: b.uploadDate,
      duration: b.duration,
      features: b.features,
      ...(b.continuationToken === undefined ? {} : { cursor: b.continuationToken }),
    },
  }),
  view: (data, b) => ({
    query: { q: b.q, type: b.type, sortBy: b.sortBy, uploadDate: b.uploadDate, duration: b.duration, features: b.features },
    items: (data.results ?? []).map(legacyListVideo),
    continuationToken: paging(data.cursor).continuationToken,
    estimatedResults: orNull(data.estimatedResults),
  }),
};

interface SuggestBody {
  q: string;
  hl: string;
  gl: string;
}

export const suggestPath: LegacyPath<SuggestBody> = {
  name: 'suggest',
  summary: 'YouTube search suggestions for the start of a query.',
  input: legacyBody(
    {
      q: text(1, 200, 'the start of a search'),
      hl: { type: 'string', pattern: '^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,4})?$', maxLength: 8, default: 'en', description: 'interface language, e.g. en' },
      gl: { ...country('us'), description: 'country, ISO 3166-1 alpha-2' },
    },
    ['q'],
  ),
  endpoints: ['youtube.suggest'],
  fieldNames: { query: 'q', language: 'hl', country: 'gl' },
  route: (b) => ({ endpoint: 'youtube.suggest', input: { query: b.q, country: b.gl, language: b.hl } }),
  view: (data, b) => ({ q: data.query ?? b.q, hl: data.language ?? b.hl, gl: data.country ?? b.gl, suggestions: data.suggestions ?? [] }),
};
