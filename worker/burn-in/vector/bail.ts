/** Why a page cannot be redacted in place; it is then rendered instead. */
export class Bail extends Error {}
