import { crc32 } from 'node:zlib';

// A real zip archive of a few small files, stored without compression: what a test needs when the real composer must
// extract a fixture's dist (the server builds its own zips with `git archive`; fixtures skip the git repository).

type Entry = { name: string; data: Buffer; crc: number; offset: number };

/** The zip of `files` (path → content), entries in the given order, dated 1980-01-01 so the bytes are stable. */
export function buildZip(files: Record<string, string>): Buffer {
  const parts: Buffer[] = [];
  const entries: Entry[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(files)) {
    const data = Buffer.from(content);
    const entry = { name, data, crc: crc32(data), offset };
    const nameBytes = Buffer.from(name);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0); // local file header
    header.writeUInt16LE(20, 4); // version needed
    header.writeUInt16LE(0, 6); // flags
    header.writeUInt16LE(0, 8); // stored
    header.writeUInt16LE(0, 10); // time
    header.writeUInt16LE(0x21, 12); // date: 1980-01-01
    header.writeUInt32LE(entry.crc, 14);
    header.writeUInt32LE(data.length, 18);
    header.writeUInt32LE(data.length, 22);
    header.writeUInt16LE(nameBytes.length, 26);
    header.writeUInt16LE(0, 28);
    parts.push(header, nameBytes, data);
    offset += header.length + nameBytes.length + data.length;
    entries.push(entry);
  }
  const directoryStart = offset;
  for (const entry of entries) {
    const nameBytes = Buffer.from(entry.name);
    const record = Buffer.alloc(46);
    record.writeUInt32LE(0x02014b50, 0); // central directory header
    record.writeUInt16LE(20, 4);
    record.writeUInt16LE(20, 6);
    record.writeUInt16LE(0, 8);
    record.writeUInt16LE(0, 10);
    record.writeUInt16LE(0, 12);
    record.writeUInt16LE(0x21, 14);
    record.writeUInt32LE(entry.crc, 16);
    record.writeUInt32LE(entry.data.length, 20);
    record.writeUInt32LE(entry.data.length, 24);
    record.writeUInt16LE(nameBytes.length, 28);
    record.writeUInt32LE(entry.offset, 42);
    parts.push(record, nameBytes);
    offset += record.length + nameBytes.length;
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0); // end of central directory
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(offset - directoryStart, 12);
  end.writeUInt32LE(directoryStart, 16);
  parts.push(end);
  return Buffer.concat(parts);
}
