// The account: who is signed in, the balance and billing link, and signing out (here or everywhere).
import { get } from './api.js';
import { icon } from './icons.js';
import { announce, button, card, confirmDialog, fmtDate, fmtNumber, h, pageHeader } from './ui.js';

export async function renderAccount(page, ctx) {
  const account = await get('/v1/account');
  const row = (label, value) => h('div', { class: 'dl-row' }, h('dt', {}, label), h('dd', {}, value));
  const billing = account.billingUrl
    ? h('a', { href: account.billingUrl, target: '_blank', rel: 'noopener noreferrer', class: 'btn btn-primary btn-sm' }, h('span', {}, 'Add credits'), icon('external'))
    : null;

  const signOut = button('Sign out', { kind: 'secondary' }, 'logout');
  signOut.addEventListener('click', () => ctx.signOut(false).catch((e) => announce(e.message, 'error')));
  const everywhere = button('Sign out everywhere', { kind: 'danger' });
  everywhere.addEventListener('click', async () => {
    const ok = await confirmDialog({
      title: 'Sign out everywhere?',
      description: 'This ends every session of your account, on every browser and device, including this one. API keys keep working.',
      confirmLabel: 'Sign out everywhere',
      danger: true,
    });
    if (ok) await ctx.signOut(true).catch((e) => announce(e.message, 'error'));
  });

  page.append(
    pageHeader('Account'),
    card(
      'Details',
      h('dl', { class: 'dl' }, row('E-mail', account.email ?? ctx.session.user.email), row('Account id', h('code', {}, account.id)), row('Created', fmtDate(account.createdAt))),
    ),
    card('Credits', h('div', { class: 'split' }, h('p', { class: 'big-number' }, `${fmtNumber(account.balance)} `, h('span', { class: 'muted' }, 'credits')), billing)),
    card(
      'Sessions',
      h('p', { class: 'muted' }, 'Signing out everywhere is the thing to do after using a shared computer or if you think someone else has your password.'),
      h('div', { class: 'button-row' }, signOut, everywhere),
    ),
  );
}
