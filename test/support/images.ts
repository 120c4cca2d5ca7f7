import { crc32, deflateSync } from 'node:zlib';

/**
 * Real image files for the cover tests and the bench, made here (the shared
 * fixtures hold none of these sizes): PNGs a browser decodes, an SVG, bytes of
 * a given size.
 */

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** An RGB PNG; `noise` makes its pixels random (it then hardly compresses: about 3 bytes a pixel). */
export function png(width: number, height: number, options: { noise?: boolean; rgb?: [number, number, number] } = {}): Uint8Array<ArrayBuffer> {
  const [r, g, b] = options.rgb ?? [200, 40, 40];
  let seed = 0x2545f491;
  const random = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return seed & 0xff;
  };
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1); // each row starts with filter byte 0
    for (let x = 0; x < width; x++) {
      const at = row + 1 + x * 3;
      rows[at] = options.noise ? random() : r;
      rows[at + 1] = options.noise ? random() : g;
      rows[at + 2] = options.noise ? random() : b;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type RGB
  const file = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', new Uint8Array(0)),
  ]);
  return new Uint8Array(file);
}

/** A noise PNG of about `bytes` bytes (a little over). */
export const pngOfAbout = (bytes: number): Uint8Array<ArrayBuffer> => {
  const side = Math.ceil(Math.sqrt(bytes / 3));
  return png(side, side, { noise: true });
};

export const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80"><rect width="120" height="80" fill="#1d4ed8"/></svg>';

export const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
