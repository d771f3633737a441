import { createSocket, type RemoteInfo } from 'node:dgram';
import type { AddressInfo } from 'node:net';

// A fake authoritative DNS server over UDP, shaped by RFC 1035 (§4.1 message format, §3.3.1 CNAME RDATA,
// §4.1.4 name compression): enough for node:dns's resolver (c-ares), pointed at it by DNS_SERVERS, to resolve
// CNAME records. A name with a CNAME answers it; a name with only an address answers NOERROR and no CNAME
// (ENODATA for the resolver); an unknown name answers NXDOMAIN (ENOTFOUND).

const TYPE_A = 1;
const TYPE_CNAME = 5;
const CLASS_IN = 1;
const RCODE_NXDOMAIN = 3;

export type FakeDnsRecord = { cname: string } | { a: string };

export type FakeDns = {
  /** `127.0.0.1:{port}`, for DNS_SERVERS. */
  server: string;
  records: Map<string, FakeDnsRecord>;
  /** How many queries arrived. */
  queries: number;
  close(): Promise<void>;
};

function encodeName(name: string): Buffer {
  const parts = name
    .replace(/\.$/, '')
    .split('.')
    .map((label) => {
      const bytes = Buffer.from(label, 'ascii');
      return Buffer.concat([Buffer.from([bytes.length]), bytes]);
    });
  return Buffer.concat([...parts, Buffer.from([0])]);
}

/** The question's name, type and where the question ends (queries never use compression). */
function readQuestion(message: Buffer): { name: string; type: number; end: number } {
  const labels: string[] = [];
  let offset = 12;
  while (message[offset] !== 0) {
    const length = message[offset]!;
    labels.push(message.subarray(offset + 1, offset + 1 + length).toString('ascii'));
    offset += 1 + length;
  }
  offset += 1;
  return { name: labels.join('.').toLowerCase(), type: message.readUInt16BE(offset), end: offset + 4 };
}

function answer(query: Buffer, records: Map<string, FakeDnsRecord>): Buffer {
  const question = readQuestion(query);
  const record = records.get(question.name);
  const answers: Buffer[] = [];
  if (record && 'cname' in record && (question.type === TYPE_CNAME || question.type === TYPE_A)) {
    const data = encodeName(record.cname);
    const head = Buffer.alloc(12);
    head.writeUInt16BE(0xc00c, 0); // a pointer to the question's name
    head.writeUInt16BE(TYPE_CNAME, 2);
    head.writeUInt16BE(CLASS_IN, 4);
    head.writeUInt32BE(300, 6);
    head.writeUInt16BE(data.length, 10);
    answers.push(Buffer.concat([head, data]));
  } else if (record && 'a' in record && question.type === TYPE_A) {
    const head = Buffer.alloc(12);
    head.writeUInt16BE(0xc00c, 0);
    head.writeUInt16BE(TYPE_A, 2);
    head.writeUInt16BE(CLASS_IN, 4);
    head.writeUInt32BE(300, 6);
    head.writeUInt16BE(4, 10);
    answers.push(Buffer.concat([head, Buffer.from(record.a.split('.').map(Number))]));
  }
  const header = Buffer.alloc(12);
  query.copy(header, 0, 0, 2); // id
  const recursionDesired = query[2]! & 0x01;
  header[2] = 0x80 | 0x04 | recursionDesired; // response, authoritative
  header[3] = 0x80 | (record ? 0 : RCODE_NXDOMAIN); // recursion available
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(answers.length, 6);
  return Buffer.concat([header, query.subarray(12, question.end), ...answers]);
}

export async function startFakeDns(): Promise<FakeDns> {
  const socket = createSocket('udp4');
  const fake: FakeDns = {
    server: '',
    records: new Map(),
    queries: 0,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
  socket.on('message', (message: Buffer, remote: RemoteInfo) => {
    fake.queries++;
    socket.send(answer(message, fake.records), remote.port, remote.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  fake.server = `127.0.0.1:${(socket.address() as AddressInfo).port}`;
  return fake;
}
