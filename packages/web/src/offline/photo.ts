/**
 * A photo from the phone's camera is shrunk before it is sent or kept on the device: at most
 * PHOTO_MAX_EDGE pixels on its long edge, JPEG at PHOTO_QUALITY. A photo already that small stays as it
 * is; a picture the browser cannot decode is given as taken (the server's type rule decides).
 */
export const PHOTO_MAX_EDGE = 2048;
export const PHOTO_QUALITY = 0.8;

/** 'IMG_0042.heic' → 'IMG_0042.jpg'. */
export function jpegName(name: string): string {
  const base = name.replace(/\.[^./\\]*$/, '') || 'fotografija';
  return `${base}.jpg`;
}

/** The size a picture of w × h is drawn at: the long edge at most `max`, the proportions kept. */
export function fittedSize(w: number, h: number, max = PHOTO_MAX_EDGE): { width: number; height: number } {
  const long = Math.max(w, h);
  if (long <= max) return { width: w, height: h };
  const scale = max / long;
  return { width: Math.max(1, Math.round(w * scale)), height: Math.max(1, Math.round(h * scale)) };
}

async function encode(bitmap: ImageBitmap, width: number, height: number, quality: number): Promise<Blob | null> {
  if (typeof OffscreenCanvas !== 'undefined') {
    const canvas = new OffscreenCanvas(width, height);
    const context = canvas.getContext('2d');
    if (!context) return null;
    context.drawImage(bitmap, 0, 0, width, height);
    return canvas.convertToBlob({ type: 'image/jpeg', quality });
  }
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context) return null;
  context.drawImage(bitmap, 0, 0, width, height);
  return new Promise((resolve) => canvas.toBlob(resolve, 'image/jpeg', quality));
}

/** The photo shrunk (a new JPEG File), or the file itself when it is small enough or cannot be decoded. */
export async function shrinkPhoto(file: File, max = PHOTO_MAX_EDGE, quality = PHOTO_QUALITY): Promise<File> {
  let bitmap: ImageBitmap;
  try {
    // The camera's orientation applied, as the photo is seen.
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    return file;
  }
  try {
    const { width, height } = fittedSize(bitmap.width, bitmap.height, max);
    if (width === bitmap.width && height === bitmap.height && file.type === 'image/jpeg') return file;
    const blob = await encode(bitmap, width, height, quality);
    if (!blob || (blob.size >= file.size && width === bitmap.width)) return file;
    return new File([blob], jpegName(file.name), { type: 'image/jpeg', lastModified: file.lastModified });
  } finally {
    bitmap.close();
  }
}
