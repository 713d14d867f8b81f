/**
 * The record vocabulary every source answers in: a person, an image, a video, a post, a comment, a profile, money,
 * a rating, a review, an address, a product, a job are shaped alike in every source where the data allows, so a
 * client that reads one platform's posts reads them all. Sources compose these pieces (the shared fields of a kind
 * plus, rarely, fields only their platform has) instead of inventing their own names.
 *
 * Rules of the vocabulary:
 * - counts are integers and named by what they count (`likes`, `comments`, `views`, `followers`), never `*Count`;
 * - instants are ISO 8601 date-times (`createdAt`, `publishedAt`, `updatedAt`, `endsAt`); calendar days `YYYY-MM-DD`;
 * - money is `{ amount, currency }` with the amount a number in the currency's unit and an ISO 4217 code;
 * - durations are whole seconds (`durationSeconds`); sizes are pixels (`width`, `height`);
 * - every record a list holds has `type` (its kind) and `id` (the platform's own id, as a string) and a `url`
 *   (its public web address) where the platform has one;
 * - what the upstream does not say is left out, never guessed or filled with a placeholder.
 */
import { bool, int, list, num, rec, str } from './records.js';
import type { JsonSchema } from './types.js';

/** The author of a post, comment, review or video, as far as the item itself names them. */
export const PERSON = rec({}, { id: str, username: str, name: str, url: str, avatar: str, isVerified: bool });

/** An image: its address and, where known, its size, alt text and caption. */
export const IMAGE = rec({ url: str }, { width: int, height: int, alt: str, caption: str });

/** A playable video file or stream attached to an item. */
export const MEDIA_VIDEO = rec({}, { url: str, hls: str, durationSeconds: int, width: int, height: int, thumbnail: str });

/** A link preview attached to a post. */
export const LINK_PREVIEW = rec({ url: str }, { title: str, description: str, image: str });

/** A poll attached to a post. */
export const POLL = rec(
  { options: list(rec({ text: str }, { votes: int })) },
  { totalVotes: int, endsAt: str, isClosed: bool },
);

/** Money: an amount in the currency's unit (12.99, not 1299) and its ISO 4217 code. */
export const MONEY = rec({ amount: num, currency: str });

/** A price range or a salary: bounds in one currency, and the period a salary is paid per. */
export const MONEY_RANGE = rec({ currency: str }, { min: num, max: num, period: str });

/** A rating: the average `value` on a scale of `max` (5 unless said), from `count` ratings. */
export const RATING = rec({ value: num }, { max: num, count: int });

/** A postal address; `full` is the address as one line where the source gives it whole. */
export const ADDRESS = rec({}, { full: str, street: str, city: str, state: str, postalCode: str, country: str });

/** A point on the map, in WGS 84 degrees. */
export const GEO = rec({ latitude: num, longitude: num });

/**
 * Fields a post may carry, on any platform (forum posts, microblog posts, channel messages, short-video and photo
 * posts). A source's post record requires `type`, `id` and what its platform always gives (often `url`, `createdAt`).
 */
export const POST_FIELDS = {
  url: str,
  title: str,
  text: str,
  language: str,
  createdAt: str,
  editedAt: str,
  author: PERSON,
  likes: int,
  comments: int,
  reposts: int,
  quotes: int,
  views: int,
  bookmarks: int,
  score: int,
  isPinned: bool,
  isNsfw: bool,
  isVideo: bool,
  hashtags: list(str),
  mentions: list(str),
  link: LINK_PREVIEW,
  thumbnail: str,
  images: list(IMAGE),
  video: MEDIA_VIDEO,
  poll: POLL,
  repostOf: rec({}, { id: str, url: str, title: str, author: PERSON }),
  replyTo: rec({}, { id: str, url: str, author: PERSON }),
} satisfies Record<string, JsonSchema>;

/** Fields a comment may carry (a reply to a post or a video). */
export const COMMENT_FIELDS = {
  url: str,
  text: str,
  createdAt: str,
  author: PERSON,
  likes: int,
  replies: int,
  /** Cursor for this comment's replies, where the platform pages them separately. */
  repliesCursor: str,
  parentId: str,
  isPinned: bool,
  isEdited: bool,
  /** The item's author liked or answered the comment. */
  isByAuthor: bool,
} satisfies Record<string, JsonSchema>;

/** Fields a profile may carry: a person, a channel, a company page, a shop. */
export const PROFILE_FIELDS = {
  url: str,
  username: str,
  name: str,
  bio: str,
  avatar: str,
  banner: str,
  isVerified: bool,
  isPrivate: bool,
  followers: int,
  following: int,
  posts: int,
  likes: int,
  views: int,
  createdAt: str,
  location: str,
  website: str,
  links: list(rec({ url: str }, { title: str })),
} satisfies Record<string, JsonSchema>;

/** Fields a video may carry (a platform's video, short or clip). */
export const VIDEO_FIELDS = {
  url: str,
  title: str,
  description: str,
  durationSeconds: int,
  views: int,
  likes: int,
  comments: int,
  publishedAt: str,
  author: PERSON,
  thumbnails: list(IMAGE),
  isLive: bool,
  isShort: bool,
  isUpcoming: bool,
  scheduledAt: str,
  category: str,
  keywords: list(str),
  language: str,
} satisfies Record<string, JsonSchema>;

/** Fields a review may carry. */
export const REVIEW_FIELDS = {
  url: str,
  title: str,
  text: str,
  rating: num,
  createdAt: str,
  author: PERSON,
  language: str,
  helpful: int,
  isVerified: bool,
  images: list(IMAGE),
  response: rec({ text: str }, { createdAt: str, author: str }),
} satisfies Record<string, JsonSchema>;

/** Fields a product or marketplace listing may carry. */
export const PRODUCT_FIELDS = {
  url: str,
  title: str,
  description: str,
  brand: str,
  price: MONEY,
  listPrice: MONEY,
  rating: RATING,
  images: list(IMAGE),
  seller: PERSON,
  condition: str,
  availability: str,
  isSponsored: bool,
  category: str,
  features: list(str),
  attributes: list(rec({ name: str, value: str })),
} satisfies Record<string, JsonSchema>;

/** Fields a job posting may carry. */
export const JOB_FIELDS = {
  url: str,
  title: str,
  description: str,
  company: rec({ name: str }, { id: str, url: str, logo: str }),
  location: ADDRESS,
  salary: MONEY_RANGE,
  postedAt: str,
  employmentType: str,
  workplace: str,
  applyUrl: str,
  isEasyApply: bool,
  applicants: int,
} satisfies Record<string, JsonSchema>;

/** A range of counts a platform publishes instead of a number (impressions, reach, audience size). */
export const COUNT_RANGE = rec({}, { min: int, max: int });

/**
 * Fields an ad of an ad library may carry (a social network's, a professional network's, a search engine's).
 * `url` is the ad's page in the library; texts are lists because one ad runs several versions of its copy; `spend` is
 * money in the advertiser's currency and the audience figures are the ranges the library publishes; shares are 0-1.
 */
export const AD_FIELDS = {
  url: str,
  advertiser: PERSON,
  paidBy: str,
  beneficiary: str,
  bodies: list(str),
  titles: list(str),
  descriptions: list(str),
  captions: list(str),
  link: str,
  cta: str,
  images: list(IMAGE),
  videos: list(MEDIA_VIDEO),
  format: str,
  platforms: list(str),
  languages: list(str),
  createdAt: str,
  startedAt: str,
  endedAt: str,
  isActive: bool,
  currency: str,
  spend: MONEY_RANGE,
  impressions: COUNT_RANGE,
  audience: COUNT_RANGE,
  reach: int,
  reachByCountry: list(
    rec({ country: str }, { reach: int, byAge: list(rec({ age: str }, { male: int, female: int, unknown: int })) }),
  ),
  demographics: list(rec({ share: num }, { age: str, gender: str })),
  regions: list(rec({ region: str, share: num })),
  targeting: rec({}, { ages: list(str), gender: str, locations: list(rec({ name: str }, { type: str, isExcluded: bool })) }),
} satisfies Record<string, JsonSchema>;

/**
 * Fields an app of an app store may carry (Apple's App Store, Google Play): the store's own id, its developer as a
 * person, the price as money (0 for a free app), installs as the store's lower bound, dates as ISO 8601 instants and
 * the download size in bytes.
 */
export const APP_FIELDS = {
  url: str,
  title: str,
  summary: str,
  description: str,
  developer: PERSON,
  price: MONEY,
  isFree: bool,
  hasInAppPurchases: bool,
  hasAds: bool,
  rating: RATING,
  installs: int,
  installsText: str,
  version: str,
  releaseNotes: str,
  releasedAt: str,
  updatedAt: str,
  sizeBytes: int,
  contentRating: str,
  genres: list(str),
  icon: str,
  screenshots: list(IMAGE),
  languages: list(str),
  minimumOsVersion: str,
  website: str,
  privacyPolicy: str,
} satisfies Record<string, JsonSchema>;
