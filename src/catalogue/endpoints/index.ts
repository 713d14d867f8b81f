/** Every endpoint of the catalogue, in source order; the one list validation, docs, OpenAPI and MCP read. */
import type { EndpointDef } from '../types.js';
import { ETSY } from './etsy.js';
import { WALMART } from './walmart.js';
import { EBAY } from './ebay.js';
import { AMAZON } from './amazon.js';
import { GOOGLEPLAY } from './googleplay.js';
import { APPSTORE } from './appstore.js';
import { CRYPTO } from './crypto.js';
import { BLUESKY } from './bluesky.js';
import { DOMAIN } from './domain.js';
import { EMAIL } from './email.js';
import { FACEBOOK } from './facebook.js';
import { FINANCE } from './finance.js';
import { GOOGLE } from './google.js';
import { HACKERNEWS } from './hackernews.js';
import { INDEED } from './indeed.js';
import { INSTAGRAM } from './instagram.js';
import { KICK } from './kick.js';
import { LINKEDIN } from './linkedin.js';
import { PINTEREST } from './pinterest.js';
import { MAPS } from './maps.js';
import { REDDIT } from './reddit.js';
import { TIKTOK } from './tiktok.js';
import { SHOPIFY } from './shopify.js';
import { SNAPCHAT } from './snapchat.js';
import { THREADS } from './threads.js';
import { SITE } from './site.js';
import { TELEGRAM } from './telegram.js';
import { TWITCH } from './twitch.js';
import { TRUTHSOCIAL } from './truthsocial.js';
import { WEB } from './web.js';
import { X } from './x.js';
import { YOUTUBE } from './youtube.js';
import { ZILLOW } from './zillow.js';
import { REALTOR } from './realtor.js';
import { AIRBNB } from './airbnb.js';
import { BOOKING } from './booking.js';
import { TRIPADVISOR } from './tripadvisor.js';
import { GLASSDOOR } from './glassdoor.js';
import { UPWORK } from './upwork.js';

export const ENDPOINTS: readonly EndpointDef[] = [
  ...Object.values(WEB),
  ...Object.values(SITE),
  ...Object.values(DOMAIN),
  ...Object.values(EMAIL),
  ...Object.values(YOUTUBE),
  ...Object.values(REDDIT),
  ...Object.values(X),
  ...Object.values(TELEGRAM),
  ...Object.values(HACKERNEWS),
  ...Object.values(BLUESKY),
  ...Object.values(TWITCH),
  ...Object.values(TRUTHSOCIAL),
  ...Object.values(KICK),
  ...Object.values(FACEBOOK),
  ...Object.values(GOOGLE),
  ...Object.values(LINKEDIN),
  ...Object.values(INDEED),
  ...Object.values(SHOPIFY),
  ...Object.values(CRYPTO),
  ...Object.values(FINANCE),
  ...Object.values(MAPS),
  ...Object.values(INSTAGRAM),
  ...Object.values(TIKTOK),
  ...Object.values(PINTEREST),
  ...Object.values(SNAPCHAT),
  ...Object.values(THREADS),
  ...Object.values(APPSTORE),
  ...Object.values(GOOGLEPLAY),
  ...Object.values(ZILLOW),
  ...Object.values(AMAZON),
  ...Object.values(REALTOR),
  ...Object.values(AIRBNB),
  ...Object.values(EBAY),
  ...Object.values(WALMART),
  ...Object.values(BOOKING),
  ...Object.values(ETSY),
  ...Object.values(TRIPADVISOR),
  ...Object.values(GLASSDOOR),
  ...Object.values(UPWORK),
];
