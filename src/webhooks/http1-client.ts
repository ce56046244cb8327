import net, { type LookupFunction } from 'node:net';
import tls, { type ConnectionOptions } from 'node:tls';
import { ResponseReader, type ResponseHead } from './http1-response';

/**
 * A minimal HTTP/1.1 client for webhook attempts: a POST written as one piece on a kept-alive
 * connection, answered by the response's status line and headers, its body skipped.
 *
 * Why not node:http: its request and response objects, streams and agent bookkeeping cost
 * 63 to 73 µs of CPU per attempt against a local receiver, on the server's only JavaScript
 * thread, where this costs 28 to 31 µs (issue 13's measurements). undici, the well-kept
 * alternative, halves node:http's cost too but parses HTTP in WebAssembly, which took 8 to 16 MB
 * more memory than the 120 MB target leaves. A webhook attempt needs little of HTTP: one request
 * shape, and of the answer only the status and where it ends.
 */

export interface Http1Target {
  secure: boolean;
  /** Host name or IP address to connect to (an IPv6 address without brackets). */
  hostname: string;
  port: number;
  /** The Host header: the URL's host, with its port when not the scheme's default. */
  host: string;
  /** Path and query, as the URL parser wrote them (percent-encoded; it removes line breaks). */
  path: string;
}

export interface Http1Options {
  /** How long an idle connection is kept for the next request. */
  idleMs: number;
  /** Idle connections kept per origin at most. */
  maxIdlePerOrigin: number;
  /** Extra TLS options (a test's certificate authority). */
  tls?: ConnectionOptions;
}

export interface Http1Exchange {
  /** Settles with the final response's head, or rejects on a network or protocol error. */
  response: Promise<ResponseHead>;
  /** Gives up: the connection is closed, and `response` rejects unless already settled. */
  cancel(): void;
}

export interface Http1Client {
  post(target: Http1Target, headers: Record<string, string>, body: string, lookup: LookupFunction | undefined): Http1Exchange;
  /** Closes every connection, idle or busy. */
  close(): void;
}

/** Header names and values we write: anything with a CR or LF would split the request (a URL has none). */
const UNSAFE = /[\r\n]/;

export function createHttp1Client(options: Http1Options): Http1Client {
  const idle = new Map<string, Connection[]>();
  const all = new Set<Connection>();
  const sessions = new Map<string, Buffer>();

  function connect(key: string, target: Http1Target, lookup: LookupFunction | undefined): Connection {
    const socket = target.secure
      ? tls.connect({
          host: target.hostname,
          port: target.port,
          // SNI takes names only.
          servername: net.isIP(target.hostname) ? undefined : target.hostname,
          ALPNProtocols: ['http/1.1'],
          session: sessions.get(key),
          lookup,
          ...options.tls,
        })
      : net.connect({ host: target.hostname, port: target.port, lookup });
    if (target.secure) (socket as tls.TLSSocket).on('session', (session: Buffer) => sessions.set(key, session));
    const connection = new Connection(socket, key);
    all.add(connection);
    return connection;
  }

  function takeIdle(key: string): Connection | undefined {
    const list = idle.get(key);
    const connection = list?.pop();
    if (list && list.length === 0) idle.delete(key);
    return connection;
  }

  function removeIdle(connection: Connection) {
    const list = idle.get(connection.key);
    const at = list ? list.indexOf(connection) : -1;
    if (at >= 0) list!.splice(at, 1);
    if (list && list.length === 0) idle.delete(connection.key);
  }

  class Connection {
    readonly socket: net.Socket;
    readonly key: string;
    /** Requests this connection has carried, the current one included. */
    uses = 0;
    private exchange: Exchange | null = null;
    private reader = new ResponseReader();
    private drainTimer: NodeJS.Timeout | undefined;

    constructor(socket: net.Socket, key: string) {
      this.socket = socket;
      this.key = key;
      socket.setNoDelay(true);
      socket.setEncoding('latin1');
      socket.setTimeout(options.idleMs);
      socket.on('data', (text: string) => this.onData(text));
      socket.on('timeout', () => {
        // An idle connection goes. A slow receiver is the attempt's timeout to judge, and the
        // rest of a body after the answer the drain timer's (onData).
        if (!this.exchange) socket.destroy();
      });
      socket.on('error', (err) => this.end(err));
      socket.on('close', () => this.end(null));
    }

    send(exchange: Exchange, text: string) {
      this.exchange = exchange;
      this.uses++;
      exchange.connection = this;
      this.socket.write(text, 'utf8');
    }

    private onData(text: string) {
      const exchange = this.exchange;
      if (!exchange) {
        // Bytes on an idle connection: nothing was asked, so nothing after this can be trusted.
        this.socket.destroy();
        return;
      }
      exchange.received = true;
      let complete: boolean;
      try {
        complete = this.reader.feed(text);
      } catch (err) {
        // A status already read is the answer; what came after it only costs the connection.
        if (this.reader.head && !exchange.head) exchange.answer(this.reader.head);
        exchange.fail(err as Error);
        this.socket.destroy();
        return;
      }
      const head = this.reader.head;
      if (head && !exchange.head) {
        exchange.answer(head);
        // The rest of a body still on its way gets the idle time in all, however slowly it
        // trickles in (the socket's timeout only notices silence).
        if (!complete) this.drainTimer = setTimeout(() => this.socket.destroy(), options.idleMs);
      }
      if (!complete) return;
      clearTimeout(this.drainTimer);
      if (!head!.reusable || this.reader.leftover() !== '') {
        this.socket.destroy();
        return;
      }
      this.exchange = null;
      this.reader = new ResponseReader();
      const list = idle.get(this.key) ?? [];
      if (list.length >= options.maxIdlePerOrigin) {
        this.socket.destroy();
        return;
      }
      list.push(this);
      idle.set(this.key, list);
    }

    abandon(err: Error) {
      this.exchange?.fail(err);
      this.socket.destroy();
    }

    private end(err: Error | null) {
      if (!all.delete(this)) return;
      clearTimeout(this.drainTimer);
      removeIdle(this);
      const exchange = this.exchange;
      this.exchange = null;
      this.socket.destroy();
      exchange?.closed(err, this.uses > 1);
    }
  }

  class Exchange {
    head: ResponseHead | null = null;
    received = false;
    connection: Connection | null = null;
    private retried = false;
    private settled = false;
    readonly response: Promise<ResponseHead>;
    private resolve!: (head: ResponseHead) => void;
    private reject!: (err: Error) => void;

    private readonly target: Http1Target;
    private readonly text: string;
    private readonly lookup: LookupFunction | undefined;
    private readonly key: string;

    constructor(target: Http1Target, text: string, lookup: LookupFunction | undefined, key: string) {
      this.target = target;
      this.text = text;
      this.lookup = lookup;
      this.key = key;
      this.response = new Promise((resolve, reject) => {
        this.resolve = resolve;
        this.reject = reject;
      });
    }

    start(connection: Connection | undefined) {
      (connection ?? connect(this.key, this.target, this.lookup)).send(this, this.text);
    }

    answer(head: ResponseHead) {
      this.head = head;
      if (this.settled) return;
      this.settled = true;
      this.resolve(head);
    }

    fail(err: Error) {
      if (this.settled) return;
      this.settled = true;
      this.reject(err);
    }

    /** Its connection closed. On a kept connection, before any answer: the receiver closed it as the request went out. */
    closed(err: Error | null, wasReused: boolean) {
      if (this.settled) return;
      if (wasReused && !this.received && !this.retried) {
        this.retried = true;
        try {
          this.start(undefined);
        } catch (startErr) {
          this.fail(startErr as Error);
        }
        return;
      }
      this.fail(err ?? Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
    }

    cancel() {
      this.fail(new Error('cancelled'));
      this.connection?.socket.destroy();
    }
  }

  return {
    post(target, headers, body, lookup) {
      let text = `POST ${target.path} HTTP/1.1\r\nHost: ${target.host}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`;
      for (const name in headers) {
        const value = headers[name]!;
        if (UNSAFE.test(name) || UNSAFE.test(value)) throw new Error(`header ${JSON.stringify(name)} holds a line break`);
        text += `${name}: ${value}\r\n`;
      }
      const key = `${target.secure ? 'https' : 'http'}://${target.host} ${lookup ? 'guarded' : 'open'}`;
      const exchange = new Exchange(target, `${text}\r\n${body}`, lookup, key);
      exchange.start(takeIdle(key));
      return exchange;
    },
    close() {
      // An attempt still waiting ends here, not on a new connection (the retry of a closed kept one).
      for (const connection of [...all]) connection.abandon(new Error('the sender was closed'));
      idle.clear();
      sessions.clear();
    },
  };
}
