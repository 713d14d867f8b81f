/**
 * Live chat (`live_chat/get_live_chat`, or `get_live_chat_replay` for a finished stream) → chat messages. No answer
 * of either is recorded in shared/upstream: the renderer names are those youtubei.js 18.1.0 parses
 * (LiveChatContinuation, LiveChatTextMessage, LiveChatPaidMessage, ReplayChatItemAction), and the tests feed a fixture
 * written from them, named as such. Pure functions.
 */
import type { YOUTUBE_CHAT_MESSAGE } from '../../catalogue/endpoints/youtube.js';
import type { TypeOf } from '../../catalogue/types.js';
import { QuarryError } from '../../errors.js';
import { at, channelUrl, compact, images, isObj, largest, num, obj, objs, str, text, type Obj } from './normalise.js';

export type ChatMessage = TypeOf<typeof YOUTUBE_CHAT_MESSAGE>;

/** The chat's first continuation on the watch page, and whether it is a replay. */
export function chatStart(next: Obj): { token: string; isReplay: boolean } | undefined {
  const chat = obj(at(next, 'contents', 'twoColumnWatchNextResults', 'conversationBar', 'liveChatRenderer'));
  const token = str(at(chat, 'continuations', 0, 'reloadContinuationData', 'continuation'));
  return token ? { token, isReplay: chat?.isReplay === true } : undefined;
}

const KINDS: Record<string, ChatMessage['type']> = {
  liveChatTextMessageRenderer: 'message',
  liveChatPaidMessageRenderer: 'paid',
  liveChatMembershipItemRenderer: 'membership',
  liveChatPaidStickerRenderer: 'sticker',
};

/** A message's runs: text as written, emoji as their first shortcut. */
function messageText(v: unknown): string | undefined {
  const parts = objs(obj(v)?.runs).map((r) => (typeof r.text === 'string' ? r.text : str(at(r, 'emoji', 'shortcuts', 0)) ?? str(at(r, 'emoji', 'emojiId')) ?? ''));
  const t = parts.join('').trim();
  return t || undefined;
}

function message(item: Obj, offsetMs?: number): ChatMessage | undefined {
  for (const [key, type] of Object.entries(KINDS)) {
    const r = obj(item[key]);
    if (!r) continue;
    const id = str(r.id);
    if (!id) throw new QuarryError('sourceChanged', 'youtube: a chat message without an id');
    const channel = str(r.authorExternalChannelId);
    const usec = num(r.timestampUsec);
    return compact({
      type,
      id,
      author: compact({ id: channel, name: text(r.authorName), url: channel ? channelUrl(channel) : undefined, avatar: largest(images(r.authorPhoto)) }),
      text: messageText(r.message) ?? text(r.headerSubtext),
      createdAt: usec !== undefined ? new Date(Math.floor(usec / 1000)).toISOString() : undefined,
      offsetSeconds: offsetMs !== undefined ? offsetMs / 1000 : undefined,
      amountText: text(r.purchaseAmountText),
      badges: objs(r.authorBadges).map((b) => str(at(b, 'liveChatAuthorBadgeRenderer', 'tooltip'))).filter((t): t is string => !!t),
    });
  }
  return undefined; // engagement messages, tickers, banners: not chat messages
}

/** One batch of chat messages and the continuation of the next. */
export function chatPage(answer: Obj): { messages: ChatMessage[]; token?: string } {
  const cont = obj(at(answer, 'continuationContents', 'liveChatContinuation'));
  if (!cont) throw new QuarryError('notFound', 'video: the chat is over or has been turned off');
  const messages: ChatMessage[] = [];
  for (const action of objs(cont.actions)) {
    const replay = obj(action.replayChatItemAction);
    const inner = replay ? objs(replay.actions) : [action];
    const offset = replay ? num(replay.videoOffsetTimeMsec) : undefined;
    for (const a of inner) {
      const item = obj(at(a, 'addChatItemAction', 'item'));
      const m = item && message(item, offset);
      if (m) messages.push(m);
    }
  }
  const next = objs(cont.continuations).map((c) => Object.values(c).find(isObj)).map((d) => str(obj(d)?.continuation)).find(Boolean);
  return { messages, token: next };
}
