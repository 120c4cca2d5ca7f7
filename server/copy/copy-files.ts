import type { FileBytes } from '../store/files.ts';

/**
 * Copies the bytes of these files from one store of bytes to another, a piece at a time (no file
 * is held whole in memory); answers how many files and bytes. A file whose bytes are gone is
 * left out: the records say it exists, and the sweep forgets such records.
 */
export async function copyFileBytes(ids: Iterable<string>, from: FileBytes, to: FileBytes): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  for (const id of ids) {
    const source = await from.open(id);
    if (source === null) continue;
    const writer = await to.create(id);
    try {
      for await (const piece of source.stream) {
        const chunk = piece as Buffer;
        await writer.write(chunk);
        bytes += chunk.byteLength;
      }
    } catch (err) {
      source.stream.destroy();
      await writer.abort();
      throw err;
    }
    await writer.commit();
    files++;
  }
  return { files, bytes };
}
