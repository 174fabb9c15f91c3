// WAL bytes a SQLite server writes, counted from outside the server (so for any revision):
// a read transaction of our own is held open, which keeps every checkpoint from copying
// the frames written after it back into the database file, so the WAL cannot start over
// while we count; the WAL index (the -shm file every connection maps) says how many
// frames the WAL holds (mxFrame) and the page size.
// https://sqlite.org/walformat.html, "The WAL-Index Header".
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { SQLITE_FILE } from './database.ts';

/** The 24-byte header in front of each page in the WAL. */
const FRAME_HEADER_BYTES = 24;

interface WalIndexHeader {
  readonly frames: number;
  readonly pageSize: number;
  /** Changes when the WAL starts over from its first frame. */
  readonly salt: number;
}

function readHeader(fd: number): WalIndexHeader {
  const header = Buffer.alloc(48);
  fs.readSync(fd, header, 0, 48, 0);
  // The WAL index is in the machine's own byte order.
  const little = os.endianness() === 'LE';
  const u32 = (offset: number) => (little ? header.readUInt32LE(offset) : header.readUInt32BE(offset));
  const u16 = little ? header.readUInt16LE(14) : header.readUInt16BE(14);
  return { frames: u32(16), pageSize: u16 === 1 ? 65536 : u16, salt: u32(32) };
}

export interface WalWatch {
  /** Bytes appended to the WAL since the watch began. */
  bytes(): number;
  /** Frames the WAL holds now (its index's mxFrame): where the next commit's first frame goes. */
  frames(): number;
  release(): void;
}

export function watchWal(dataDir: string): WalWatch {
  const file = path.join(dataDir, SQLITE_FILE);
  // The WAL index exists while a connection has the database open; a server between its
  // connections (a baseline's, seen once in a long run) may have none: a reading connection
  // of our own makes it, and is kept until the watch ends.
  let keeper: DatabaseSync | undefined;
  if (!fs.existsSync(`${file}-shm`)) {
    keeper = new DatabaseSync(file);
    keeper.prepare('select count(*) from sqlite_master').get();
  }
  // Opened once and closed only after the reader: closing any descriptor of a file drops
  // every POSIX lock this process holds on it, the reader's read lock included.
  const shm = fs.openSync(`${file}-shm`, 'r');
  const reader = new DatabaseSync(file, { readOnly: true });
  reader.exec('begin');
  reader.prepare('select count(*) from sqlite_master').get();
  const start = readHeader(shm);
  return {
    bytes: () => {
      const now = readHeader(shm);
      // A WAL copied back whole when our snapshot was taken may start over once more, before
      // its first new frame; after that, our read lock holds every checkpoint back.
      const frames = now.salt === start.salt ? now.frames - start.frames : now.frames;
      return frames * (now.pageSize + FRAME_HEADER_BYTES);
    },
    frames: () => readHeader(shm).frames,
    release: () => {
      reader.exec('rollback');
      reader.close();
      fs.closeSync(shm);
      keeper?.close();
    },
  };
}
