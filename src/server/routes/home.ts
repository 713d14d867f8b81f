/**
 * `GET /` and `GET /billing` (issue 38.2, 38.4). A browser at `/` goes to the dashboard; an API client gets the
 * addresses that matter. `/billing` is the page `billingUrl` (insufficientCredits errors, the dashboard's "Add
 * credits") leads to by default: what the operator wrote in QUARRY_BILLING_NOTE, or how credits are had on a
 * self-hosted server.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayDeps } from '../../pipeline/deps.js';

const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const wantsHtml = (request: FastifyRequest) => /\btext\/html\b/i.test(String(request.headers.accept ?? ''));

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Plain text as paragraphs; addresses and e-mail addresses become links. Nothing else of HTML is let through. */
export function noteHtml(text: string): string {
  return text
    .split(/\n\s*\n/)
    .map((para) => {
      const linked = escapeHtml(para.trim())
        .replace(/\bhttps?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)]/g, (u) => `<a href="${u}">${u}</a>`)
        .replace(/(^|[\s(])([A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,})\b/g, (_, pre: string, mail: string) => `${pre}<a href="mailto:${mail}">${mail}</a>`);
      return `<p>${linked.replace(/\n/g, '<br>')}</p>`;
    })
    .join('\n');
}

const DEFAULT_NOTE = [
  'Credits on this server are added by the people who run it: there is no card payment here.',
  'To get credits, write to the operator of this server with your account id (the dashboard shows it under Account; `npx quarry whoami` prints it too).',
];

function billingPage(deps: GatewayDeps): string {
  const note = deps.config.billingNote;
  const body = note
    ? noteHtml(note)
    : `${DEFAULT_NOTE.map((p) => `<p>${escapeHtml(p).replace(/`([^`]+)`/g, '<code>$1</code>')}</p>`).join('\n')}
<h2>Running this server?</h2>
<p>Add credits with <code>npx quarry credits add --account ID --amount N</code>. Say here how people get them by setting
<code>QUARRY_BILLING_NOTE</code> (plain text; addresses become links), or send them to a billing page of your own with
<code>QUARRY_BILLING_URL</code>.</p>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Credits · Quarry</title>
<style>
  :root { color-scheme: light dark; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; line-height: 1.55; }
  body { margin: 0; padding: 48px 20px; }
  main { max-width: 640px; margin: 0 auto; }
  h1 { font-size: 28px; margin: 0 0 16px; }
  h2 { font-size: 18px; margin: 32px 0 8px; }
  code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.92em; padding: 1px 5px; border-radius: 4px; background: rgba(127, 127, 127, 0.15); overflow-wrap: anywhere; }
  .back { margin-top: 32px; }
</style>
</head>
<body>
<main>
<h1>Credits</h1>
${body}
<p class="back"><a href="/dashboard/">Back to the dashboard</a></p>
</main>
</body>
</html>
`;
}

function sendPage(reply: FastifyReply, html: string): FastifyReply {
  reply.headers({
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': PAGE_CSP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-cache',
  });
  return reply.send(html);
}

export function registerHomeRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  app.get('/', async (request, reply) => {
    if (wantsHtml(request)) return reply.redirect('/dashboard/', 302);
    reply.header('content-type', 'application/json; charset=utf-8');
    return reply.send(
      JSON.stringify({
        success: true,
        data: {
          name: 'Quarry',
          catalogue: '/v1/catalogue',
          openapi: '/openapi.json',
          dashboard: '/dashboard/',
          mcp: '/v1/mcp',
          billing: deps.config.billingUrl,
        },
        requestId: request.id,
      }),
    );
  });

  app.get('/billing', async (request, reply) => {
    if (wantsHtml(request) || !/json/i.test(String(request.headers.accept ?? ''))) return sendPage(reply, billingPage(deps));
    reply.header('content-type', 'application/json; charset=utf-8');
    const note = deps.config.billingNote ?? DEFAULT_NOTE.join(' ');
    return reply.send(JSON.stringify({ success: true, data: { note, configured: deps.config.billingNote !== undefined }, requestId: request.id }));
  });
}
