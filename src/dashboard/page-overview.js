// Overview: the balance and the billing link, the last 30 days at a glance, and how to make a first call.
import { get } from './api.js';
import { icon } from './icons.js';
import { card, codeBlock, copyButton, fmtNumber, h, pageHeader } from './ui.js';

export async function renderOverview(page, ctx) {
  const { session } = ctx;
  const welcome = ctx.takeWelcomeKey();
  const [usage, keys] = await Promise.all([get('/v1/account/usage?days=30').catch(() => null), get('/v1/account/keys').catch(() => null)]);
  await ctx.refreshSession().catch(() => {});
  const account = ctx.session.account ?? session.account;
  const active = keys?.keys?.filter((k) => !k.revoked) ?? [];

  page.append(pageHeader('Overview', `Signed in as ${session.user.email}`));

  if (welcome) {
    page.append(
      h(
        'section',
        { class: 'callout callout-success', 'aria-labelledby': 'welcome-title' },
        h('h2', { id: 'welcome-title', class: 'callout-title' }, 'Your account is ready'),
        h('p', {}, `This is your “${welcome.name}” API key. Copy it into your program’s environment now; you can reveal it again later with your password.`),
        h('div', { class: 'secret-row' }, h('code', { class: 'secret' }, welcome.key), copyButton(welcome.key, 'Copy key')),
      ),
    );
  }

  const billing = account.billingUrl
    ? h('a', { class: 'btn btn-primary btn-sm', href: account.billingUrl, target: '_blank', rel: 'noopener noreferrer' }, h('span', {}, 'Add credits'), icon('external'))
    : null;
  page.append(
    h(
      'div',
      { class: 'stats' },
      stat('Credit balance', fmtNumber(account.balance), 'credits', billing),
      stat('Calls, last 30 days', usage ? fmtNumber(usage.calls ?? 0) : '—', usage ? `${fmtNumber(usage.live?.credits ?? usage.credits ?? 0)} credits spent${usage.test?.calls ? `, ${fmtNumber(usage.test.calls)} test calls` : ''}` : 'usage unavailable', h('a', { href: '/dashboard/usage', class: 'link-sm' }, 'See usage')),
      stat('Active API keys', fmtNumber(active.length), `${fmtNumber((keys?.keys?.length ?? 0) - active.length)} revoked`, h('a', { href: '/dashboard/keys', class: 'link-sm' }, 'Manage keys')),
    ),
  );

  const origin = location.origin;
  page.append(
    card(
      'Make your first call',
      h('p', { class: 'muted' }, 'Keep the key in an environment variable, never in source code. Every data endpoint is a POST with a JSON body; the ', h('a', { href: '/dashboard/catalogue' }, 'catalogue'), ' lists them with their prices.'),
      codeBlock(`export QUARRY_KEY=qry_…   # one of your API keys\ncurl -s ${origin}/v1/shopify/store \\\n  -H "Authorization: Bearer $QUARRY_KEY" \\\n  -H 'Content-Type: application/json' \\\n  -d '{"store":"allbirds.com"}'`, { language: 'sh' }),
    ),
  );
}

function stat(label, value, sub, action) {
  return h('section', { class: 'stat card', 'aria-label': label }, h('p', { class: 'stat-label' }, label), h('p', { class: 'stat-value' }, value), h('p', { class: 'stat-sub' }, sub), action ? h('div', { class: 'stat-action' }, action) : null);
}
