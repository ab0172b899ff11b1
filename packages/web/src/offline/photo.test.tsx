import { expect, test } from 'vitest';
import { fittedSize, jpegName, PHOTO_MAX_EDGE, shrinkPhoto } from './photo';

/** A camera's photo is shrunk before it is sent or kept (photo.ts), in Chromium's own decoder and canvas. */

async function picture(width: number, height: number, type: 'image/png' | 'image/jpeg', name: string): Promise<File> {
  const canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2d context');
  // Noise, as a real photo has: a flat picture would compress to nothing.
  const image = context.createImageData(width, height);
  for (let i = 0; i < image.data.length; i += 4) {
    image.data[i] = (i * 7) % 251;
    image.data[i + 1] = (i * 13) % 241;
    image.data[i + 2] = (i * 17) % 239;
    image.data[i + 3] = 255;
  }
  context.putImageData(image, 0, 0);
  const blob = await canvas.convertToBlob({ type, quality: 0.95 });
  return new File([blob], name, { type });
}

async function dimensions(file: Blob): Promise<[number, number]> {
  const bitmap = await createImageBitmap(file);
  const size: [number, number] = [bitmap.width, bitmap.height];
  bitmap.close();
  return size;
}

test('fits the long edge in 2048 px, the proportions kept', () => {
  expect(fittedSize(4032, 3024)).toEqual({ width: 2048, height: 1536 });
  expect(fittedSize(3024, 4032)).toEqual({ width: 1536, height: 2048 });
  expect(fittedSize(1600, 1200)).toEqual({ width: 1600, height: 1200 });
  expect(jpegName('IMG_0042.heic')).toBe('IMG_0042.jpg');
  expect(jpegName('rov')).toBe('rov.jpg');
});

test('a large photo becomes a smaller JPEG of at most 2048 px on its long edge', async () => {
  const taken = await picture(3000, 1500, 'image/png', 'rov.png');
  const shrunk = await shrinkPhoto(taken);
  expect(shrunk.type).toBe('image/jpeg');
  expect(shrunk.name).toBe('rov.jpg');
  expect(shrunk.size).toBeLessThan(taken.size);
  expect(await dimensions(shrunk)).toEqual([PHOTO_MAX_EDGE, 1024]);
  // A JPEG's first bytes: what the server's type check reads.
  expect([...new Uint8Array(await shrunk.slice(0, 3).arrayBuffer())]).toEqual([0xff, 0xd8, 0xff]);
});

test('a photo small enough stays as taken; what cannot be decoded is given as it is', async () => {
  const small = await picture(800, 600, 'image/jpeg', 'sitno.jpg');
  expect(await shrinkPhoto(small)).toBe(small);
  const notAPicture = new File([new Uint8Array([1, 2, 3, 4])], 'slika.heic', { type: 'image/heic' });
  expect(await shrinkPhoto(notAPicture)).toBe(notAPicture);
});
