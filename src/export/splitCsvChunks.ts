import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';

/** A file of whole CSV records of one day. */
export interface CsvChunk {
  file: string;
  /** The day every record of the chunk starts with (its first field, YYYY-MM-DD). */
  day: string;
  /** Whether this is the day's last chunk: the day is complete. */
  endsDay: boolean;
  records: number;
  bytes: number;
  /** The longest record, bytes (line breaks inside quoted fields included). */
  maxRecordBytes: number;
  /** Whether a quote occurs: only then can a line break sit inside a field. */
  hasQuotes: boolean;
}

export interface SplitOptions {
  /** The file of the chunk with this index (0, 1, …). */
  fileFor: (index: number) => string;
  /** A day's records are cut into several chunks past this size. */
  chunkBytes: number;
  /** Called with the records each piece of input completed (progress). */
  onRecords?: (records: number) => void;
  /** Takes a finished chunk. The next one is written meanwhile; a third waits until it is done. */
  load: (chunk: CsvChunk) => Promise<void>;
  signal?: AbortSignal | undefined;
}

const QUOTE = 0x22;
const NEWLINE = 0x0a;
/** The day key: the first field, YYYY-MM-DD, then a comma. */
const KEY_BYTES = 10;

/**
 * Cuts a CSV byte stream (Postgres COPY ... (FORMAT csv)) whose records start with their day and
 * come sorted by it into files of whole records, one day per file, and hands each over as soon as
 * it is complete: memory stays at a buffer and a record, disk at the chunks of two days. A record
 * ends at a line break outside quotes; a quote inside a quoted field is doubled, so counting quotes
 * tells. Reading the stream waits while a handed-over chunk is still being taken, which holds the
 * database back (TCP).
 */
export async function splitCsvChunks(source: AsyncIterable<Buffer>, options: SplitOptions): Promise<{ records: number; chunks: number }> {
  let index = 0;
  let chunk: CsvChunk | undefined;
  let out: WriteStream | undefined;
  let loading: Promise<void> = Promise.resolve();
  let failure: { error: unknown } | undefined;
  let inQuotes = false;
  let quoted = false;
  /** The bytes of the record under way, from earlier buffers (at most one record). */
  let partial: Buffer[] = [];
  let partialBytes = 0;
  let total = 0;

  const check = () => {
    if (failure) throw failure.error;
    options.signal?.throwIfAborted();
  };
  const write = async (bytes: Buffer) => {
    chunk!.bytes += bytes.length;
    if (!out!.write(bytes)) await once(out!, 'drain');
  };
  const hand = async (endsDay: boolean) => {
    if (!chunk || !out) return;
    await close(out);
    const done = { ...chunk, endsDay };
    chunk = out = undefined;
    await loading;
    check();
    loading = options.load(done).then(
      () => undefined,
      (error: unknown) => void (failure ??= { error }),
    );
  };
  /** Counts a record of `day` on the right chunk, cutting before it when its day changes or the chunk is full. */
  const place = async (day: string, size: number) => {
    if (chunk && (chunk.day !== day || chunk.bytes >= options.chunkBytes)) await hand(chunk.day !== day);
    if (!chunk) {
      chunk = { file: options.fileFor(index++), day, endsDay: false, records: 0, bytes: 0, maxRecordBytes: 0, hasQuotes: false };
      out = open(chunk.file);
    }
    chunk.records++;
    chunk.maxRecordBytes = Math.max(chunk.maxRecordBytes, size);
  };

  try {
    for await (const buffer of source) {
      check();
      // Records that end in this buffer are written in runs of one day: [runStart, end of last record].
      let runStart = 0;
      let runDay: string | undefined;
      let runKey = Buffer.alloc(KEY_BYTES);
      let recordStart = 0;
      let completed = 0;
      let position = 0;
      // The next quote and line break at or after `position` (-1: none left), found once each.
      let nextQuote = buffer.indexOf(QUOTE);
      let nextNewline = buffer.indexOf(NEWLINE);
      for (;;) {
        if (nextQuote !== -1 && nextQuote < position) nextQuote = buffer.indexOf(QUOTE, position);
        if (inQuotes) {
          if (nextQuote === -1) break;
          inQuotes = false;
          position = nextQuote + 1;
          continue;
        }
        if (nextNewline !== -1 && nextNewline < position) nextNewline = buffer.indexOf(NEWLINE, position);
        if (nextQuote !== -1 && (nextNewline === -1 || nextQuote < nextNewline)) {
          inQuotes = true;
          quoted = true;
          position = nextQuote + 1;
          continue;
        }
        if (nextNewline === -1) break;
        const end = nextNewline + 1;
        position = end;
        let day: string;
        if (
          partialBytes === 0 &&
          runDay !== undefined &&
          buffer.compare(runKey, 0, KEY_BYTES, recordStart, recordStart + KEY_BYTES) === 0
        ) {
          day = runDay;
        } else {
          const head =
            partialBytes > 0 ? Buffer.concat([...partial, buffer.subarray(0, Math.min(end, KEY_BYTES))]) : buffer.subarray(recordStart);
          day = head.toString('latin1', 0, KEY_BYTES);
        }
        const size = partialBytes + end - recordStart;
        if (runDay !== undefined && (day !== runDay || chunk!.bytes + recordStart - runStart >= options.chunkBytes)) {
          // Writes the run so far before the record that starts a new chunk.
          await write(buffer.subarray(runStart, recordStart));
          runStart = recordStart;
          runDay = undefined;
        }
        if (runDay === undefined) {
          await place(day, size);
          if (partialBytes > 0) for (const piece of partial) await write(piece);
          runDay = day;
          runKey = Buffer.from(day, 'latin1');
        } else {
          chunk!.records++;
          chunk!.maxRecordBytes = Math.max(chunk!.maxRecordBytes, size);
        }
        chunk!.hasQuotes ||= quoted;
        quoted = false;
        partial = [];
        partialBytes = 0;
        recordStart = end;
        completed++;
      }
      if (runDay !== undefined) await write(buffer.subarray(runStart, recordStart));
      if (recordStart < buffer.length) {
        // Copied: the source may reuse its buffer once this one is handed back.
        partial.push(Buffer.from(buffer.subarray(recordStart)));
        partialBytes += buffer.length - recordStart;
      }
      total += completed;
      if (completed > 0) options.onRecords?.(completed);
    }
    if (partialBytes > 0) throw new Error('export: the CSV stream ended inside a record');
    await hand(true);
    await loading;
    check();
    return { records: total, chunks: index };
  } catch (error) {
    // A write still in flight fails once the file is destroyed (ERR_STREAM_DESTROYED): with no
    // listener that error was uncaught, and took the process down instead of this failure.
    out?.on('error', () => {}).destroy();
    if (chunk) await rm(chunk.file, { force: true });
    // A load still running must not outlive the failure it would report to nobody.
    await loading;
    throw error;
  }
}

function open(file: string): WriteStream {
  return createWriteStream(file, { highWaterMark: 1024 * 1024 });
}

async function close(stream: WriteStream): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    stream.once('error', reject);
    stream.end(() => resolve());
  });
}
