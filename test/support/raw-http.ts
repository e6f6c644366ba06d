import { connect, Socket } from 'node:net';

export interface RawAnswer {
  /** 0 when no answer arrived. */
  status: number;
  headers: Record<string, string>;
  /** The answer's body, parsed as JSON when it is JSON. */
  body: any;
  /** Milliseconds from connecting to the end of the answer (or to the give-up). */
  ms: number;
  /** The server closed the connection (after answering, or without answering). */
  closed: boolean;
}

export interface RawExchangeOptions {
  /** Writes the request: for framing no HTTP client would produce, or bytes sent slowly. */
  send: (socket: Socket) => void;
  /** Gives up after this long, answering what arrived so far. */
  waitMs?: number;
  /** Answers as soon as one complete answer has arrived, without waiting for the close. */
  firstAnswer?: boolean;
}

/**
 * One connection with bytes written by hand, for what an HTTP client cannot do: broken framing,
 * headers that never end, a body that arrives slowly or never, a close with data unread.
 */
export function rawExchange(url: string, options: RawExchangeOptions): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  const started = Date.now();
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let received = Buffer.alloc(0);
    let closed = false;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...parseAnswer(received), ms: Date.now() - started, closed });
    };
    const timer = setTimeout(finish, options.waitMs ?? 5000);
    socket.on('connect', () => options.send(socket));
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (options.firstAnswer && isComplete(received)) finish();
    });
    // A reset after the answer arrived is the server cutting a client that was still sending.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      closed = true;
      finish();
    });
  });
}

/** Headers (with a Content-Length, unless there is no body) and `body`, as a client would send them. */
export function requestHead(method: string, path: string, headers: Record<string, string | number> = {}): string {
  const lines = Object.entries({ Host: 'localhost', ...headers }).map(([name, value]) => `${name}: ${value}`);
  return `${method} ${path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`;
}

function splitHead(bytes: Buffer): { head: string; body: Buffer } | undefined {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  return { head: bytes.subarray(0, end).toString('latin1'), body: bytes.subarray(end + 4) };
}

function isComplete(bytes: Buffer): boolean {
  const parts = splitHead(bytes);
  if (!parts) return false;
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(parts.head);
  return parts.body.length >= Number(length?.[1] ?? 0);
}

function parseAnswer(bytes: Buffer): Pick<RawAnswer, 'status' | 'headers' | 'body'> {
  const parts = splitHead(bytes);
  if (!parts) return { status: 0, headers: {}, body: undefined };
  const [statusLine, ...lines] = parts.head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = headers['content-length'] === undefined ? parts.body.length : Number(headers['content-length']);
  const text = parts.body.subarray(0, length).toString('utf8');
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // left as text
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}
