/**
 * At most a few probes at once per mail server address, in this process. Mail servers throttle, greylist and
 * eventually block an address that opens many connections at once, and that reputation is the operator's (the
 * upstream notes' advice). A probe that gets no slot before its deadline is not made.
 */
export const PROBES_PER_SERVER = 2;

interface Slots {
  running: number;
  waiting: (() => void)[];
}

const servers = new Map<string, Slots>();

/** Runs `fn` holding one of the server's slots; undefined when none freed up before `deadline` (ms since epoch). */
export async function withServerSlot<T>(address: string, deadline: number, fn: () => Promise<T>, max = PROBES_PER_SERVER): Promise<T | undefined> {
  let s = servers.get(address);
  if (!s) servers.set(address, (s = { running: 0, waiting: [] }));
  if (s.running >= max) {
    const slots = s;
    const got = await new Promise<boolean>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        slots.waiting.splice(slots.waiting.indexOf(wake), 1);
        resolve(false);
      }, Math.max(0, deadline - Date.now()));
      slots.waiting.push(wake);
    });
    if (!got) return undefined;
  } else s.running++;
  try {
    return await fn();
  } finally {
    const next = s.waiting.shift();
    // The slot passes straight to the next waiter; the count only drops when nobody waits.
    if (next) next();
    else if (--s.running === 0) servers.delete(address);
  }
}
