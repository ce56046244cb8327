// The counter page's requests. An answer is either a fragment of HTML to show, a refusal in words
// (JSON { code, message }), or no answer at all (the server cannot be reached): the offline queue
// tells a refusal (final: never retried) from a missing answer (retried later with the same key).

import { say } from './texts';

export type Answer =
  | { kind: 'html'; status: number; html: string }
  | { kind: 'refused'; status: number; code: string; message: string }
  | { kind: 'unreachable' };

async function read(res: Response): Promise<Answer> {
  const type = res.headers.get('Content-Type') ?? '';
  if (type.startsWith('text/html') && res.status < 500) return { kind: 'html', status: res.status, html: await res.text() };
  if (type.startsWith('application/json')) {
    const body = (await res.json().catch(() => ({}))) as { code?: string; message?: string };
    // A 5xx from a proxy in front of a stopped server is "unreachable", not a refusal.
    if (res.status >= 502 && res.status <= 504) return { kind: 'unreachable' };
    return { kind: 'refused', status: res.status, code: body.code ?? 'REFUSED', message: body.message ?? say('answered', { status: String(res.status) }) };
  }
  if (res.status >= 500) return { kind: 'unreachable' };
  return { kind: 'refused', status: res.status, code: 'UNEXPECTED', message: say('answeredReload', { status: String(res.status) }) };
}

export async function getFragment(path: string): Promise<Answer> {
  try {
    return await read(await fetch(path, { headers: { Accept: 'text/html' }, credentials: 'same-origin', cache: 'no-store' }));
  } catch {
    return { kind: 'unreachable' };
  }
}

export async function postForm(path: string, fields: Record<string, string>, csrf: string): Promise<Answer> {
  try {
    const res = await fetch(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html', 'X-CSRF-Token': csrf },
      body: new URLSearchParams(fields).toString(),
      credentials: 'same-origin',
      cache: 'no-store',
    });
    return await read(res);
  } catch {
    return { kind: 'unreachable' };
  }
}

/**
 * A random UUID (v4) for each tap's idempotency key. crypto.randomUUID exists only in secure
 * contexts, and a shop tablet may reach the server over plain http on the LAN; getRandomValues
 * exists everywhere.
 */
export function newKey(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
