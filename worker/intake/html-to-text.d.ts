// html-to-text ships no types; only the call intake makes is described.
declare module 'html-to-text' {
  export function convert(html: string, options?: Record<string, unknown>): string;
}
