import type { AddressInfo } from 'node:net';
import { createServer, type Socket } from 'node:net';

// A fake SMTP server, shaped by RFC 5321 (§3.3 mail transaction, §4.1 commands, §4.2 replies) without TLS or
// AUTH: enough for nodemailer's SMTP transport, pointed at it by SMTP_URL=smtp://127.0.0.1:{port}, to deliver.

export type FakeSmtp = {
  /** `smtp://127.0.0.1:{port}`, for SMTP_URL. */
  url: string;
  /** Every message accepted, as its recipients and raw text. */
  messages: { to: string[]; data: string }[];
  /** While true, every mail transaction is refused at MAIL FROM with a temporary failure (451, RFC 5321 §4.2.2). */
  refusing: boolean;
  /** How many mail transactions were refused. */
  refusedCount: number;
  close(): Promise<void>;
};

export async function startFakeSmtp(): Promise<FakeSmtp> {
  const messages: FakeSmtp['messages'] = [];
  const sockets = new Set<Socket>();
  const state = { refusing: false, refusedCount: 0 };
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.setEncoding('utf8');
    let buffered = '';
    let recipients: string[] = [];
    let data: string[] | undefined;
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 fake-smtp ESMTP ready');
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      for (let end = buffered.indexOf('\r\n'); end !== -1; end = buffered.indexOf('\r\n')) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        if (data) {
          if (line === '.') {
            messages.push({ to: recipients, data: data.join('\r\n') });
            data = undefined;
            recipients = [];
            reply('250 2.0.0 queued');
          } else {
            data.push(line.startsWith('..') ? line.slice(1) : line);
          }
          continue;
        }
        const command = line.slice(0, 4).toUpperCase();
        if (command === 'EHLO' || command === 'HELO') reply('250 fake-smtp');
        else if (command === 'MAIL' && state.refusing) {
          state.refusedCount++;
          reply('451 4.3.0 mailbox temporarily unavailable');
        } else if (command === 'MAIL') reply('250 2.1.0 ok');
        else if (command === 'RCPT') {
          recipients.push(line.slice(line.indexOf(':') + 1).trim());
          reply('250 2.1.5 ok');
        } else if (command === 'DATA') {
          data = [];
          reply('354 end data with <CR><LF>.<CR><LF>');
        } else if (command === 'RSET') {
          recipients = [];
          reply('250 2.0.0 ok');
        } else if (command === 'QUIT') {
          reply('221 2.0.0 bye');
          socket.end();
        } else reply('502 5.5.2 command not implemented');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    get refusing() {
      return state.refusing;
    },
    set refusing(value: boolean) {
      state.refusing = value;
    },
    get refusedCount() {
      return state.refusedCount;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
