// The MCP configuration for this account: the server address and the Authorization header form (preferred: a key in
// the path ends up in logs and referrers).
import { get } from './api.js';
import { button, card, codeBlock, field, h, pageHeader } from './ui.js';

const PLACEHOLDER = 'YOUR_API_KEY';

export function mcpSnippets(origin, key) {
  const url = `${origin}/v1/mcp`;
  return {
    url,
    json: JSON.stringify({ mcpServers: { quarry: { type: 'http', url, headers: { Authorization: `Bearer ${key}` } } } }, null, 2),
    cli: `claude mcp add --transport http quarry ${url} \\\n  --header "Authorization: Bearer ${key}"`,
    pathForm: `${url}/${key}`,
  };
}

export async function renderMcp(page, ctx) {
  const keys = (await get('/v1/account/keys')).keys.filter((k) => !k.revoked);
  const origin = location.origin;
  let key = PLACEHOLDER;
  const blocks = h('div', { class: 'stack' });

  const draw = () => {
    const s = mcpSnippets(origin, key);
    blocks.replaceChildren(
      card(
        'Server address',
        h('p', { class: 'muted' }, 'A streamable-HTTP MCP server. Each tool call costs 1 credit, except the credits tool, which is free.'),
        codeBlock(s.url, { label: 'Copy address' }),
      ),
      card('Client configuration (JSON)', h('p', { class: 'muted' }, 'For clients configured with an mcpServers file (desktop assistants, editors).'), codeBlock(s.json, { label: 'Copy configuration', language: 'json' })),
      card('Command line', codeBlock(s.cli, { label: 'Copy command', language: 'sh' })),
      card(
        'Only if your client cannot send headers',
        h('p', { class: 'muted' }, 'The key can go in the path instead. It then appears in access logs and proxies, so prefer the header form above.'),
        codeBlock(s.pathForm, { label: 'Copy address' }),
      ),
    );
  };

  const keySel = h('select', { name: 'key' }, keys.map((k) => h('option', { value: k.id }, `${k.name} (${k.prefix}…${k.test ? ', test mode' : ''})`)));
  const insert = button('Insert this key', { kind: 'secondary' });
  insert.addEventListener('click', async () => {
    const row = keys.find((k) => k.id === keySel.value);
    if (!row) return;
    const whole = await ctx.secrets.keyFor(row, 'The configuration below will contain the whole key.');
    if (!whole) return;
    key = whole;
    draw();
  });
  keySel.addEventListener('change', () => {
    key = ctx.secrets.get(keySel.value) ?? PLACEHOLDER;
    draw();
  });
  if (keys[0] && ctx.secrets.get(keys[0].id)) key = ctx.secrets.get(keys[0].id);
  draw();

  page.append(
    pageHeader('MCP', 'Use Quarry’s endpoints as tools from any MCP client.'),
    keys.length
      ? h('div', { class: 'filters' }, field('API key', keySel), insert, h('p', { class: 'hint' }, `Until you insert a key, the snippets show ${PLACEHOLDER}.`))
      : h('p', { class: 'muted' }, 'Create an API key first; the snippets show a placeholder until then.'),
    blocks,
  );
}
