import { cursor, endpoint, limit, text } from '../fields.js';
import { int, list, literal, rec, str } from '../records.js';
import { PERSON, POST_FIELDS } from '../vocabulary.js';

/**
 * A pin in the shared post vocabulary: its title and description, the pinner, its image or video, the page it links
 * to, its reactions (`likes`), saves (`bookmarks`) and comments, and the board it was saved to. Every answer names the
 * pin's id; the page and the resource API give the rest, the oEmbed fallback only title, pinner and picture.
 */
export const PIN = rec(
  { type: literal('post'), id: str, url: str },
  {
    title: POST_FIELDS.title,
    text: POST_FIELDS.text,
    createdAt: POST_FIELDS.createdAt,
    author: POST_FIELDS.author,
    likes: POST_FIELDS.likes,
    comments: POST_FIELDS.comments,
    bookmarks: POST_FIELDS.bookmarks,
    isVideo: POST_FIELDS.isVideo,
    images: POST_FIELDS.images,
    video: POST_FIELDS.video,
    link: POST_FIELDS.link,
    board: rec({ name: str }, { id: str, url: str }),
    category: str,
    topics: list(str),
  },
);

export const BOARD = rec(
  { type: literal('board'), id: str, url: str, name: str },
  { description: str, pins: int, followers: int, sections: int, cover: str, createdAt: str, owner: PERSON },
);

const bookmark = () => cursor('^[A-Za-z0-9+/=_|.-]{1,2048}$', "Pinterest's bookmark", 2048);
const profile = () => text(1, 2048, 'username or profile address');

export const PINTEREST = {
  search: endpoint({
    id: 'pinterest.search',
    title: 'Pinterest search',
    summary: 'Searches Pinterest for pins matching a query and returns them with image, pinner, board and counts.',
    credits: 1,
    perItems: 25,
    cacheTtlSeconds: 1800,
    fields: { query: text(1, 200, 'search terms'), limit: limit(1, 50, 25), cursor: bookmark() },
    required: ['query'],
    itemsField: 'pins',
    example: { query: 'vegan recipes', limit: 25 },
    output: rec({ pins: list(PIN) }, { cursor: str }),
  }),
  pin: endpoint({
    id: 'pinterest.pin',
    title: 'Pinterest pin',
    summary: 'Returns one Pinterest pin with its title, description, image or video, pinner, board, link and counts.',
    credits: 1,
    cacheTtlSeconds: 21600,
    fields: { pin: text(1, 2048, 'pin id or address') },
    required: ['pin'],
    example: { pin: 'https://www.pinterest.com/pin/106890191127977979/' },
    output: rec({ pin: PIN }),
  }),
  boards: endpoint({
    id: 'pinterest.boards',
    title: 'Pinterest boards of a profile',
    summary: "Returns a Pinterest profile's public boards with their names, descriptions, pin and follower counts.",
    credits: 1,
    perItems: 25,
    cacheTtlSeconds: 3600,
    fields: { profile: profile(), limit: limit(1, 50, 25), cursor: bookmark() },
    required: ['profile'],
    itemsField: 'boards',
    example: { profile: 'thesearchguru', limit: 25 },
    output: rec({ boards: list(BOARD) }, { cursor: str }),
  }),
  board: endpoint({
    id: 'pinterest.board',
    title: 'Pinterest board',
    summary: "Returns a Pinterest board's details and a page of its pins, with a cursor for the next page.",
    credits: 1,
    perItems: 25,
    cacheTtlSeconds: 1800,
    fields: { board: text(1, 2048, 'board address or username/board'), limit: limit(1, 50, 25), cursor: bookmark() },
    required: ['board'],
    itemsField: 'pins',
    example: { board: 'https://www.pinterest.com/thesearchguru/icons/', limit: 25 },
    output: rec({ board: BOARD, pins: list(PIN) }, { cursor: str }),
  }),
};
