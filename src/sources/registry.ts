/**
 * The one list of built sources. Adding a source is adding its folder and one line here; the pipeline finds
 * operations only through this registry.
 */
import domain from './domain/index.js';
import email from './email/index.js';
import reddit from './reddit/index.js';
import shopify from './shopify/index.js';
import site from './site/index.js';
import web from './web/index.js';
import type { Operation, SourceModule } from './types.js';

export const SOURCES: readonly SourceModule[] = [reddit, web, shopify, domain, site, email];

export function findOperation(endpointId: string): { source: SourceModule; operation: Operation } | undefined {
  for (const source of SOURCES) {
    const operation = source.operations[endpointId];
    if (operation) return { source, operation };
  }
  return undefined;
}
