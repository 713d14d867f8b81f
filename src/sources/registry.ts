/**
 * The one list of sources. Adding a source is adding its folder and one line here; the pipeline finds operations only
 * through this registry. `checkRegistry` runs at start-up (and in a test): every operation serves an endpoint the
 * catalogue declares, and every declared endpoint has an operation or a stated reason why it has none.
 */
import type { EndpointDef } from '../catalogue/types.js';
import etsy from './etsy/index.js';
import walmart from './walmart/index.js';
import ebay from './ebay/index.js';
import amazon from './amazon/index.js';
import googleplay from './googleplay/index.js';
import bluesky from './bluesky/index.js';
import appstore from './appstore/index.js';
import crypto from './crypto/index.js';
import domain from './domain/index.js';
import email from './email/index.js';
import facebook from './facebook/index.js';
import finance from './finance/index.js';
import google from './google/index.js';
import hackernews from './hackernews/index.js';
import indeed from './indeed/index.js';
import linkedin from './linkedin/index.js';
import pinterest from './pinterest/index.js';
import maps from './maps/index.js';
import instagram from './instagram/index.js';
import kick from './kick/index.js';
import reddit from './reddit/index.js';
import shopify from './shopify/index.js';
import site from './site/index.js';
import snapchat from './snapchat/index.js';
import threads from './threads/index.js';
import telegram from './telegram/index.js';
import tiktok from './tiktok/index.js';
import twitch from './twitch/index.js';
import truthsocial from './truthsocial/index.js';
import web from './web/index.js';
import x from './x/index.js';
import youtube from './youtube/index.js';
import zillow from './zillow/index.js';
import realtor from './realtor/index.js';
import airbnb from './airbnb/index.js';
import booking from './booking/index.js';
import tripadvisor from './tripadvisor/index.js';
import glassdoor from './glassdoor/index.js';
import upwork from './upwork/index.js';
import type { Operation, SourceModule } from './types.js';

export const SOURCES: readonly SourceModule[] = [reddit, finance, maps, web, shopify, domain, site, email, instagram, tiktok, pinterest, snapchat, threads, linkedin, x, youtube, facebook, telegram, crypto, indeed, hackernews, bluesky, twitch, truthsocial, kick, google, appstore, googleplay, zillow, amazon, realtor, airbnb, ebay, walmart, booking, etsy, tripadvisor, glassdoor, upwork];

/** Declared sources with no module yet, and why (shown as the endpoints' unavailableReason). */
const NOT_BUILT_SOURCES: Readonly<Record<string, string>> = {
};

export interface Found {
  source: SourceModule;
  operation: Operation;
}

const byId = new Map<string, Found>();
for (const source of SOURCES) for (const operation of source.operations) byId.set(operation.endpoint.id, { source, operation });

export function findOperation(endpointId: string): Found | undefined {
  return byId.get(endpointId);
}

/** Why an endpoint has no operation, or undefined when it has one (or no reason was given: a registry error). */
export function notBuiltReason(endpointId: string): string | undefined {
  if (byId.has(endpointId)) return undefined;
  const sourceId = endpointId.slice(0, endpointId.indexOf('.'));
  return SOURCES.find((s) => s.id === sourceId)?.notBuilt?.[endpointId] ?? NOT_BUILT_SOURCES[sourceId];
}

/** Every mismatch between the catalogue and the registry, as sentences; empty when they agree. */
export function checkRegistry(endpoints: readonly EndpointDef[], sources: readonly SourceModule[] = SOURCES): string[] {
  const problems: string[] = [];
  const declared = new Map(endpoints.map((e) => [e.id, e]));
  const served = new Set<string>();
  for (const source of sources) {
    for (const op of source.operations) {
      const id = op.endpoint.id;
      if (!id.startsWith(`${source.id}.`)) problems.push(`source ${source.id} has an operation for ${id}, another source's endpoint`);
      if (declared.get(id) !== op.endpoint) problems.push(`source ${source.id}: operation ${id} serves an endpoint the catalogue does not list`);
      if (served.has(id)) problems.push(`${id} has two operations`);
      served.add(id);
    }
    for (const id of Object.keys(source.notBuilt ?? {})) {
      if (!declared.has(id)) problems.push(`source ${source.id}: notBuilt names ${id}, which the catalogue does not declare`);
      if (served.has(id)) problems.push(`source ${source.id}: ${id} has an operation and a notBuilt reason`);
    }
  }
  for (const id of Object.keys(NOT_BUILT_SOURCES)) {
    if (sources.some((s) => s.id === id)) problems.push(`source ${id} is built but still listed as not built`);
  }
  for (const e of endpoints) {
    if (served.has(e.id)) continue;
    const sourceId = e.id.slice(0, e.id.indexOf('.'));
    const module = sources.find((s) => s.id === sourceId);
    if (!(module?.notBuilt?.[e.id] ?? NOT_BUILT_SOURCES[sourceId])) problems.push(`${e.id} has no operation and no reason why`);
  }
  return problems;
}
