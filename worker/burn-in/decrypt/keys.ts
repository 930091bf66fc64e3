import { aesCbcNoPadding, hash, rc4 } from './ciphers.js';

// The file key of PDF's standard security handler from the user password (ISO 32000-2, 7.6.4.3): Algorithms 2
// and 6 for revisions 2–4 (RC4 40–128 bits, AES-128), Algorithm 2.A with 2.B for revision 6 and the SHA-256
// variant of revision 5 (AES-256).

export interface StandardSecurity {
  revision: number;
  /** Key length in bytes (revisions 2–4). */
  length: number;
  owner: Uint8Array;
  user: Uint8Array;
  permissions: number;
  /** First element of the trailer's /ID (revisions 2–4). */
  id: Uint8Array;
  encryptMetadata: boolean;
  userEncrypted?: Uint8Array;
}

const PADDING = Uint8Array.from([
  0x28, 0xbf, 0x4e, 0x5e, 0x4e, 0x75, 0x8a, 0x41, 0x64, 0x00, 0x4e, 0x56, 0xff, 0xfa, 0x01, 0x08, 0x2e, 0x2e, 0x00, 0xb6, 0xd0, 0x68, 0x3e, 0x80, 0x2f, 0x0c, 0xa9, 0xfe, 0x64, 0x53, 0x69, 0x7a,
]);

function padded(password: Uint8Array): Uint8Array {
  const out = new Uint8Array(32);
  const used = password.subarray(0, 32);
  out.set(used);
  out.set(PADDING.subarray(0, 32 - used.length), used.length);
  return out;
}

function littleEndian32(value: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setInt32(0, value, true);
  return out;
}

/** Algorithm 2: the key a password gives (revisions 2–4). */
function legacyKey(security: StandardSecurity, password: Uint8Array): Uint8Array {
  const parts = [padded(password), security.owner.subarray(0, 32), littleEndian32(security.permissions), security.id];
  if (security.revision >= 4 && !security.encryptMetadata) parts.push(Uint8Array.from([0xff, 0xff, 0xff, 0xff]));
  let digest: Uint8Array = hash('md5', ...parts);
  const length = security.revision === 2 ? 5 : security.length;
  if (security.revision >= 3) for (let round = 0; round < 50; round += 1) digest = hash('md5', digest.subarray(0, length));
  return digest.subarray(0, length);
}

/** Algorithms 4 and 5: whether the key opens the document (its /U entry recomputed). */
function legacyUserMatches(security: StandardSecurity, key: Uint8Array): boolean {
  if (security.revision === 2) return Buffer.from(rc4(key, PADDING)).equals(Buffer.from(security.user.subarray(0, 32)));
  let value: Uint8Array = rc4(key, hash('md5', PADDING, security.id));
  for (let round = 1; round <= 19; round += 1) value = rc4(key.map((byte) => byte ^ round), value);
  return Buffer.from(value.subarray(0, 16)).equals(Buffer.from(security.user.subarray(0, 16)));
}

/** Algorithm 2.B: the hash of revision 6. */
function hardenedHash(password: Uint8Array, salt: Uint8Array, userKey: Uint8Array): Uint8Array {
  let k: Uint8Array = hash('sha256', password, salt, userKey);
  let e: Uint8Array = new Uint8Array(0);
  for (let round = 0; round < 64 || (e[e.length - 1] as number) > round - 32; round += 1) {
    const block = Buffer.concat([password, k, userKey]);
    const k1 = Buffer.concat(Array.from({ length: 64 }, () => block));
    e = aesCbcNoPadding('encrypt', k.subarray(0, 16), k.subarray(16, 32), k1);
    let sum = 0;
    for (let index = 0; index < 16; index += 1) sum += e[index] as number;
    k = hash((['sha256', 'sha384', 'sha512'] as const)[sum % 3] as 'sha256', e);
  }
  return k.subarray(0, 32);
}

function modernKey(security: StandardSecurity, password: Uint8Array): Uint8Array | null {
  const user = security.user;
  const check = (salt: Uint8Array) => (security.revision === 6 ? hardenedHash(password, salt, new Uint8Array(0)) : hash('sha256', password, salt));
  if (!Buffer.from(check(user.subarray(32, 40))).equals(Buffer.from(user.subarray(0, 32)))) return null;
  if (!security.userEncrypted || security.userEncrypted.length < 32) throw new Error('the encryption dictionary has no /UE');
  return aesCbcNoPadding('decrypt', check(user.subarray(40, 48)), new Uint8Array(16), security.userEncrypted.subarray(0, 32));
}

/** The file key the user password opens, or null when it is not the user password. */
export function fileKey(security: StandardSecurity, password: string): Uint8Array | null {
  if (security.revision >= 5) {
    // Revisions 5 and 6 take UTF-8 passwords of at most 127 bytes (SASLprep approximated by NFKC).
    return modernKey(security, Buffer.from(password.normalize('NFKC'), 'utf8').subarray(0, 127));
  }
  const key = legacyKey(security, Buffer.from(password, 'latin1'));
  return legacyUserMatches(security, key) ? key : null;
}

/** The key of one object (Algorithm 1): revisions 2–4; AES-128 adds "sAlT". */
export function objectKey(key: Uint8Array, objectNumber: number, generation: number, aes: boolean): Uint8Array {
  const suffix = Uint8Array.from([objectNumber & 0xff, (objectNumber >> 8) & 0xff, (objectNumber >> 16) & 0xff, generation & 0xff, (generation >> 8) & 0xff]);
  const digest = hash('md5', key, suffix, aes ? Buffer.from('sAlT', 'latin1') : new Uint8Array(0));
  return digest.subarray(0, Math.min(key.length + 5, 16));
}
