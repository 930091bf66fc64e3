import type { ReactNode } from 'react';
import type { PageGeometry } from './PageView.js';

export interface LoadedImage {
  url: string;
  width: number;
  height: number;
}

/** Loads image bytes as a blob: URL with its natural size (PNG and JPEG; TIFF goes through tiff.ts, browsers do not show it). */
export async function loadImage(bytes: Uint8Array, mediaType: string): Promise<LoadedImage> {
  const url = URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: mediaType }));
  const image = new Image();
  image.src = url;
  try {
    await image.decode();
  } catch (error) {
    URL.revokeObjectURL(url);
    throw error;
  }
  return { url, width: image.naturalWidth, height: image.naturalHeight };
}

interface Props {
  image: LoadedImage;
  scale: number;
  label: string;
  overlay: (geometry: PageGeometry) => ReactNode;
}

/** An image document as one page: boxes are in the image's pixels (origin top-left, y down). */
export function ImageView({ image, scale, label, overlay }: Props) {
  const geometry: PageGeometry = {
    width: image.width * scale,
    height: image.height * scale,
    transform: [scale, 0, 0, scale, 0, 0],
    view: [0, 0, image.width, image.height],
  };
  return (
    <div className="page-frame" style={{ width: geometry.width, height: geometry.height }} data-page={1}>
      <img src={image.url} alt={label} width={geometry.width} height={geometry.height} className="page-canvas" draggable={false} />
      {overlay(geometry)}
    </div>
  );
}
