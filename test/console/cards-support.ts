// Helpers of the console card tests: reading a field's value and message out of the editor's
// HTML, making small test images, and posting a logo as a browser's plain form would.
import jpeg from 'jpeg-js';
import { encodePngImage } from '../../src/lib/image';
import type { TestApp } from '../support/app';
import type { ConsoleClient } from '../support/console';

const decode = (text: string) => text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The id the form's helpers give the input named `name`. */
export const fieldId = (name: string) => `f-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;

/** The message shown at the input named `name`, or undefined. */
export function errorOf(page: string, name: string): string | undefined {
  const match = new RegExp(`<span class="error" id="${escape(fieldId(name))}-error">([^<]*)</span>`).exec(page);
  return match ? decode(match[1]!) : undefined;
}

/** The message of a group of inputs (a list, a row), or undefined. */
export function groupErrorOf(page: string, name: string): string | undefined {
  const match = new RegExp(`<p class="error" role="alert" id="${escape(fieldId(name))}-error">([^<]*)</p>`).exec(page);
  return match ? decode(match[1]!) : undefined;
}

/** The value the text input named `name` shows, or undefined when there is no such input. */
export function valueOf(page: string, name: string): string | undefined {
  const match = new RegExp(`<input id="${escape(fieldId(name))}" name="${escape(name)}" type="[a-z]+"(?: value="([^"]*)")?`).exec(page);
  return match ? decode(match[1] ?? '') : undefined;
}

/** A flat-colour RGBA image as PNG. */
export function pngImage(width: number, height: number, rgb: [number, number, number] = [200, 40, 40]): Buffer {
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) data.set([...rgb, 255], i * 4);
  return encodePngImage({ width, height, data });
}

export function jpegImage(width: number, height: number): Buffer {
  const data = Buffer.alloc(width * height * 4, 0x80);
  return jpeg.encode({ width, height, data }, 90).data;
}

/** Posts the logo form as a browser does: multipart, the CSRF token in the action's query. */
export async function uploadLogo(
  app: TestApp,
  client: ConsoleClient,
  cardId: string,
  file: { bytes: Buffer; name?: string; type?: string },
  options: { csrf?: string | null } = {},
): Promise<{ status: number; location: string | null; text: string }> {
  const csrf = options.csrf === undefined ? await client.csrfFrom(`/console/cards/${cardId}`) : options.csrf;
  const body = new FormData();
  body.append('logo', new Blob([file.bytes], { type: file.type ?? 'image/png' }), file.name ?? 'logo.png');
  const query = csrf === null ? '' : `?_csrf=${encodeURIComponent(csrf)}`;
  const res = await fetch(`${app.url}/console/cards/${cardId}/logo${query}`, {
    method: 'POST',
    headers: { Cookie: client.cookieHeader(), Origin: app.url },
    body,
    redirect: 'manual',
  });
  return { status: res.status, location: res.headers.get('location'), text: await res.text() };
}
