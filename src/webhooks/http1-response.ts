/**
 * Reads one HTTP/1.1 response off a connection, as far as a webhook attempt needs it: the status
 * (and Location, for the attempt's message), and where the response ends, so the connection can
 * carry the next attempt. The body is skipped, never kept.
 *
 * Input is the socket's bytes as latin1 text (one character per byte), so string indexes are byte
 * counts and a cut between two packets cannot split a character.
 */

/** Node's own limit for a response's header section. */
export const MAX_HEAD_BYTES = 16 * 1024;
/** An answer body is read past only up to this size; a larger one costs the connection instead. */
export const MAX_SKIPPED_BODY_BYTES = 64 * 1024;
/** A chunk-size line or a trailer line longer than this is not HTTP a receiver sends. */
const MAX_LINE_BYTES = 4 * 1024;

export class ResponseError extends Error {
  readonly code = 'BAD_RESPONSE';
}

export interface ResponseHead {
  status: number;
  location: string | undefined;
  /** The response's end can be found and the receiver keeps the connection open. */
  reusable: boolean;
}

type Phase = 'head' | 'length' | 'chunk-size' | 'chunk-data' | 'chunk-end' | 'trailer' | 'done';

export class ResponseReader {
  head: ResponseHead | null = null;
  private text = '';
  private phase: Phase = 'head';
  /** Bytes of the body (phase 'length') or of the current chunk still to skip. */
  private left = 0;
  private skipped = 0;

  /**
   * Takes the next bytes. Returns true once the response is complete; `leftover()` then holds any
   * bytes after it. Throws ResponseError on anything that is not a well-formed response.
   */
  feed(chunk: string): boolean {
    this.text = this.text === '' ? chunk : this.text + chunk;
    for (;;) {
      switch (this.phase) {
        case 'head': {
          const end = this.text.indexOf('\r\n\r\n');
          if (end < 0 || end > MAX_HEAD_BYTES) {
            if (this.text.length > MAX_HEAD_BYTES + 3) throw new ResponseError(`the answer's headers exceed ${MAX_HEAD_BYTES / 1024} KiB`);
            return false;
          }
          const parsed = parseHead(this.text.slice(0, end));
          this.text = this.text.slice(end + 4);
          // 1xx (100 Continue, 103 Early Hints): interim, without a body; the final answer follows.
          if (parsed === null) continue;
          this.head = parsed.head;
          if (!parsed.head.reusable) {
            this.phase = 'done';
            return true;
          }
          this.phase = parsed.chunked ? 'chunk-size' : 'length';
          this.left = parsed.length;
          continue;
        }
        case 'length': {
          const taken = this.skip(this.left);
          this.left -= taken;
          if (this.left > 0) return false;
          this.phase = 'done';
          continue;
        }
        case 'chunk-size': {
          const line = this.line();
          if (line === null) return false;
          // chunk-size [ chunk-ext ]: hex digits, then optionally ";name=value" extensions.
          const match = /^([0-9a-fA-F]{1,8})[ \t]*(?:;.*)?$/.exec(line);
          if (!match) throw new ResponseError('the answer is not well-formed HTTP: a bad chunk size');
          const size = parseInt(match[1]!, 16);
          if (this.skipped + size > MAX_SKIPPED_BODY_BYTES) throw new ResponseError('the answer body is too large to skip');
          this.phase = size === 0 ? 'trailer' : 'chunk-data';
          this.left = size;
          continue;
        }
        case 'chunk-data': {
          this.left -= this.skip(this.left);
          if (this.left > 0) return false;
          this.phase = 'chunk-end';
          continue;
        }
        case 'chunk-end': {
          if (this.text.length < 2) return false;
          if (!this.text.startsWith('\r\n')) throw new ResponseError('the answer is not well-formed HTTP: a chunk without its line end');
          this.text = this.text.slice(2);
          this.phase = 'chunk-size';
          continue;
        }
        case 'trailer': {
          const line = this.line();
          if (line === null) return false;
          // Trailer fields until an empty line, which ends the response.
          if (line === '') this.phase = 'done';
          continue;
        }
        case 'done':
          return true;
      }
    }
  }

  /** Bytes that came after the complete response (a well-behaved receiver sends none). */
  leftover(): string {
    return this.text;
  }

  /** Skips up to `n` buffered bytes of body; returns how many. */
  private skip(n: number): number {
    const taken = Math.min(n, this.text.length);
    this.text = taken === this.text.length ? '' : this.text.slice(taken);
    this.skipped += taken;
    return taken;
  }

  /** The next CRLF-terminated line without its CRLF, or null until it has arrived. */
  private line(): string | null {
    const end = this.text.indexOf('\r\n');
    if (end < 0) {
      if (this.text.length > MAX_LINE_BYTES) throw new ResponseError('the answer is not well-formed HTTP: a line too long');
      return null;
    }
    const line = this.text.slice(0, end);
    this.text = this.text.slice(end + 2);
    return line;
  }
}

const STATUS_LINE = /^HTTP\/1\.([01]) ([1-9]\d\d)(?:[ \t]|$)/;

/**
 * The final answer's head, or null for an interim (1xx) one. How its body is delimited decides
 * whether the connection can be used again: by a Content-Length or chunked coding on a connection
 * the receiver keeps open. A close-delimited body, or one framed both ways (RFC 9112 §6.3: a
 * message to distrust), ends the connection instead.
 */
function parseHead(text: string): { head: ResponseHead; chunked: boolean; length: number } | null {
  const lines = text.split('\r\n');
  const status = STATUS_LINE.exec(lines[0]!);
  if (!status) throw new ResponseError('the answer is not well-formed HTTP: no status line');
  const code = Number(status[2]);
  if (code >= 100 && code < 200 && code !== 101) return null;
  const lengths: string[] = [];
  const codings: string[] = [];
  const connection: string[] = [];
  let location: string | undefined;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    const colon = line.indexOf(':');
    // An obsolete folded line continues a field this reader does not use.
    if (line.startsWith(' ') || line.startsWith('\t')) continue;
    if (colon <= 0) throw new ResponseError('the answer is not well-formed HTTP: a header line without a name');
    const name = line.slice(0, colon).toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'content-length') lengths.push(...value.split(',').map((v) => v.trim()));
    else if (name === 'transfer-encoding') codings.push(...tokens(value));
    else if (name === 'connection') connection.push(...tokens(value));
    else if (name === 'location') location = value;
  }
  const keepsOpen = status[1] === '1' ? !connection.includes('close') : connection.includes('keep-alive');
  const chunked = codings.length > 0 && codings[codings.length - 1] === 'chunked';
  const sameLength = lengths.length > 0 && lengths.every((v) => v === lengths[0]) && /^\d{1,15}$/.test(lengths[0]!);
  // 204 and 304 never have a body, whatever they say (RFC 9112 §6.3).
  const bodiless = code === 204 || code === 304;
  const framed = bodiless || (codings.length === 0 ? sameLength : chunked && lengths.length === 0);
  const length = bodiless || !sameLength ? 0 : Number(lengths[0]);
  const reusable = keepsOpen && code !== 101 && framed && length <= MAX_SKIPPED_BODY_BYTES;
  return { head: { status: code, location, reusable }, chunked: !bodiless && chunked, length };
}

function tokens(value: string): string[] {
  return value
    .split(',')
    .map((token) => token.trim().toLowerCase())
    .filter((token) => token !== '');
}
