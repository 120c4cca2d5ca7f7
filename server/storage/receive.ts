import { ApiError } from '../http/api-error.ts';
import type { FileBytes } from '../store/files.ts';
import { SNIFF_BYTES } from './sniff.ts';

export type Received =
  | { outcome: 'stored'; size: number; head: Uint8Array }
  /** More than the limit arrived: reading stopped and nothing was kept. */
  | { outcome: 'too-large'; size: number; head: Uint8Array }
  | { outcome: 'empty' };

/** Streams a request body to the new file `id`, counting bytes; stops reading past maxBytes. */
export async function receive(files: FileBytes, id: string, body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<Received> {
  if (body === null) return { outcome: 'empty' };
  const reader = body.getReader();
  const file = await files.create(id);
  let size = 0;
  let head: Uint8Array = new Uint8Array(0);
  try {
    for (;;) {
      const chunk = await readChunk(reader);
      if (chunk === null) break;
      size += chunk.byteLength;
      if (head.byteLength < SNIFF_BYTES) head = concat(head, chunk.subarray(0, SNIFF_BYTES - head.byteLength));
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        await file.abort();
        return { outcome: 'too-large', size, head };
      }
      await file.write(chunk);
    }
  } catch (err) {
    await file.abort();
    throw err;
  }
  if (size === 0) {
    await file.abort();
    return { outcome: 'empty' };
  }
  await file.commit();
  return { outcome: 'stored', size, head };
}

/** The next chunk, or null at the end; a broken connection is the client's problem, answered 400. */
async function readChunk(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<Uint8Array | null> {
  try {
    const { done, value } = await reader.read();
    return done ? null : value;
  } catch {
    throw new ApiError('VALIDATION_ERROR', 'The upload was interrupted before the whole body arrived; send it again');
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a);
  out.set(b, a.byteLength);
  return out;
}
