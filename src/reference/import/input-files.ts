// What an operator points `data import` at, as published: a zip, a folder, or `.csv` /
// `.csv.gz` files. Each becomes a list of named entries that open as byte streams, so a
// parser never cares which of them it was given. Nothing is read whole into memory.
import fs from 'node:fs';
import path from 'node:path';
import { createGunzip } from 'node:zlib';
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { ImportRefused } from './import-errors.ts';

export interface InputEntry {
  /** The file name without folders, e.g. `enterprise.csv`. */
  readonly name: string;
  /** Where it came from, for messages and the summary: `dump.zip:enterprise.csv`. */
  readonly origin: string;
  /** Bytes to read (on disk, or uncompressed in a zip), for progress. */
  readonly size: number;
  open(onBytes: (count: number) => void): Promise<Readable>;
}

export async function listInputs(paths: readonly string[]): Promise<InputEntry[]> {
  const entries: InputEntry[] = [];
  for (const given of paths) {
    const stat = await fs.promises.stat(given).catch(() => undefined);
    if (!stat) throw new ImportRefused(`${given}: no such file or folder`);
    if (stat.isDirectory()) {
      const names = (await fs.promises.readdir(given)).filter((name) => /\.csv(\.gz)?$/i.test(name)).sort();
      for (const name of names) entries.push(fileEntry(path.join(given, name)));
    } else if (/\.zip$/i.test(given)) {
      entries.push(...(await zipEntries(given)));
    } else if (/\.csv(\.gz)?$/i.test(given)) {
      entries.push(fileEntry(given));
    } else {
      throw new ImportRefused(`${given}: expected a .zip, a folder, or .csv / .csv.gz files`);
    }
  }
  return entries;
}

function fileEntry(file: string): InputEntry {
  const size = fs.statSync(file).size;
  return {
    name: path.basename(file).replace(/\.gz$/i, ''),
    origin: file,
    size,
    async open(onBytes) {
      const raw = fs.createReadStream(file, { highWaterMark: 1 << 20 });
      raw.on('data', (chunk) => onBytes(chunk.length));
      return /\.gz$/i.test(file) ? raw.pipe(createGunzip()) : raw;
    },
  };
}

/** The `.csv` members of a zip (folders inside it flattened), read from its central directory. */
async function zipEntries(file: string): Promise<InputEntry[]> {
  const zip = await openZip(file);
  const found: { name: string; size: number }[] = [];
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      if (/\.csv$/i.test(entry.fileName)) found.push({ name: entry.fileName, size: entry.uncompressedSize });
      zip.readEntry();
    });
    zip.on('end', resolve);
    zip.on('error', reject);
    zip.readEntry();
  });
  zip.close();
  return found.map(({ name, size }) => ({
    name: path.posix.basename(name),
    origin: `${file}:${name}`,
    size,
    open: (onBytes) => openZipMember(file, name, onBytes),
  }));
}

function openZip(file: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: false }, (error, zip) =>
      error || !zip
        ? reject(new ImportRefused(`${file}: not a readable zip (${error?.message ?? 'unknown error'})`))
        : resolve(zip),
    ),
  );
}

async function openZipMember(file: string, member: string, onBytes: (count: number) => void): Promise<Readable> {
  const zip = await openZip(file);
  return new Promise((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      if (entry.fileName !== member) return zip.readEntry();
      zip.openReadStream(entry, (error, stream) => {
        if (error || !stream) return reject(error ?? new Error(`cannot read ${member}`));
        // Progress counts uncompressed bytes, as the member's size in the listing does.
        stream.on('data', (chunk: Buffer) => onBytes(chunk.length));
        stream.on('end', () => zip.close());
        resolve(stream);
      });
    });
    zip.on('end', () => reject(new Error(`${member} vanished from ${file}`)));
    zip.on('error', reject);
    zip.readEntry();
  });
}
