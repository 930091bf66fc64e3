// Which files the server will take, decided before any byte is sent (the server decides again from the bytes).

const ACCEPTED_EXTENSIONS = ['pdf', 'png', 'jpg', 'jpeg', 'tif', 'tiff', 'mp3', 'wav', 'm4a', 'ogg', 'flac', 'mp4', 'mov', 'webm', 'mkv', 'avi'];
const ACCEPTED_TYPES = /^(application\/pdf|image\/(png|jpeg|tiff)|audio\/|video\/)/;

export const MAX_FILES_PER_UPLOAD = 100;

export function fileProblem(file: { name: string; size: number; type: string }): string | null {
  if (file.size === 0) return 'the file is empty';
  const extension = file.name.includes('.') ? file.name.split('.').pop()!.toLowerCase() : '';
  if (!ACCEPTED_TYPES.test(file.type) && !ACCEPTED_EXTENSIONS.includes(extension)) return 'not a PDF, image, audio or video file';
  if (/[\u0000-\u001f\u007f/\\]/.test(file.name)) return 'the name contains characters that are not allowed';
  return null;
}
