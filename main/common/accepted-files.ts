// What uploads and watched folders take, by name and declared media type: the one list the server's intake
// (services/file-types.ts, which decides from the bytes) and the window's drop check (renderer/src/domain/upload.ts)
// are both built from. Plain data: no Node or zod imports, so the renderer bundles it.

export interface AcceptedKind {
  /** How a clerk names it in a refusal. */
  label: string;
  extensions: readonly string[];
  /** Declared media types (a browser's File.type); a prefix ends in '/'. */
  mediaTypes: readonly string[];
}

export const OOXML_TYPES: Readonly<Record<string, string>> = {
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.pptx': 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};
export const ODF_TYPES: Readonly<Record<string, string>> = {
  '.odt': 'application/vnd.oasis.opendocument.text',
  '.ods': 'application/vnd.oasis.opendocument.spreadsheet',
  '.odp': 'application/vnd.oasis.opendocument.presentation',
};
export const LEGACY_OFFICE_TYPES: Readonly<Record<string, string>> = { '.doc': 'application/msword', '.xls': 'application/vnd.ms-excel', '.ppt': 'application/vnd.ms-powerpoint' };
export const TEXT_TYPES: Readonly<Record<string, string>> = { '.txt': 'text/plain', '.csv': 'text/csv', '.html': 'text/html', '.htm': 'text/html' };

const bare = (map: Readonly<Record<string, string>>) => Object.keys(map).map((ext) => ext.slice(1));

export const ACCEPTED_KINDS: readonly AcceptedKind[] = [
  { label: 'PDF', extensions: ['pdf'], mediaTypes: ['application/pdf'] },
  { label: 'image (PNG, JPEG, TIFF)', extensions: ['png', 'jpg', 'jpeg', 'tif', 'tiff'], mediaTypes: ['image/png', 'image/jpeg', 'image/tiff'] },
  { label: 'audio', extensions: ['mp3', 'wav', 'm4a', 'ogg', 'flac'], mediaTypes: ['audio/'] },
  { label: 'video', extensions: ['mp4', 'mov', 'webm', 'mkv', 'avi'], mediaTypes: ['video/'] },
  { label: 'e-mail (.eml .msg .mbox .pst)', extensions: ['eml', 'mht', 'msg', 'mbox', 'mbx', 'pst'], mediaTypes: ['message/rfc822', 'application/vnd.ms-outlook', 'application/mbox'] },
  {
    label: 'Office document (.docx .doc .xlsx .xls .pptx .ppt .odt .ods .odp .rtf)',
    extensions: [...bare(OOXML_TYPES), ...bare(LEGACY_OFFICE_TYPES), ...bare(ODF_TYPES), 'rtf'],
    mediaTypes: [...Object.values(OOXML_TYPES), ...Object.values(LEGACY_OFFICE_TYPES), ...Object.values(ODF_TYPES), 'application/rtf', 'text/rtf'],
  },
  { label: 'text (.txt .csv .html)', extensions: bare(TEXT_TYPES), mediaTypes: [...new Set(Object.values(TEXT_TYPES))] },
];

/** Said in refusals: what uploads and watched folders take. */
export const ACCEPTED_TYPES_TEXT =
  'a PDF, PNG, JPEG, TIFF, audio or video file, an e-mail (.eml .msg .mbox .pst) or an Office or text file (.docx .doc .xlsx .xls .pptx .ppt .odt .ods .odp .rtf .txt .html .csv)';

export function extensionOf(name: string): string {
  return name.includes('.') ? (name.split('.').pop() ?? '').toLowerCase() : '';
}

/** Whether a file's name or declared type is one intake takes (the bytes decide later, on the server). */
export function isAcceptedFile(file: { name: string; type: string }): boolean {
  const extension = extensionOf(file.name);
  return ACCEPTED_KINDS.some(
    (kind) => kind.extensions.includes(extension) || (file.type !== '' && kind.mediaTypes.some((type) => (type.endsWith('/') ? file.type.startsWith(type) : file.type === type))),
  );
}

/** The `accept` attribute of a file chooser: every extension and media type above. */
export const ACCEPT_ATTRIBUTE = ACCEPTED_KINDS.flatMap((kind) => [...kind.extensions.map((ext) => `.${ext}`), ...kind.mediaTypes.map((type) => (type.endsWith('/') ? `${type}*` : type))]).join(',');
