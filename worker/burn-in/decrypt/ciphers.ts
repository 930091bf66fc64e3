import { createCipheriv, createDecipheriv, createHash } from 'node:crypto';

// The ciphers of PDF's standard security handler: RC4 (not in every OpenSSL build, and a few lines), AES-CBC
// from node:crypto, and the hashes of the key derivations.

export function rc4(key: Uint8Array, data: Uint8Array): Uint8Array {
  const s = new Uint8Array(256);
  for (let i = 0; i < 256; i += 1) s[i] = i;
  for (let i = 0, j = 0; i < 256; i += 1) {
    j = (j + (s[i] as number) + (key[i % key.length] as number)) & 0xff;
    [s[i], s[j]] = [s[j] as number, s[i] as number];
  }
  const out = new Uint8Array(data.length);
  for (let n = 0, i = 0, j = 0; n < data.length; n += 1) {
    i = (i + 1) & 0xff;
    j = (j + (s[i] as number)) & 0xff;
    [s[i], s[j]] = [s[j] as number, s[i] as number];
    out[n] = (data[n] as number) ^ (s[((s[i] as number) + (s[j] as number)) & 0xff] as number);
  }
  return out;
}

/** AES-CBC with the IV in the first 16 bytes (PDF strings and streams); PKCS#7 padding removed when valid. */
export function aesDecrypt(key: Uint8Array, data: Uint8Array): Uint8Array {
  if (data.length < 32 || data.length % 16 !== 0) {
    // An empty string encrypts to the IV alone; anything shorter or ragged cannot be AES output.
    if (data.length === 16) return new Uint8Array(0);
    throw new Error('an AES-encrypted string or stream has a length that is not a whole number of blocks');
  }
  const decipher = createDecipheriv(key.length === 32 ? 'aes-256-cbc' : 'aes-128-cbc', key, data.subarray(0, 16));
  decipher.setAutoPadding(false);
  const plain = Buffer.concat([decipher.update(data.subarray(16)), decipher.final()]);
  const pad = plain[plain.length - 1] ?? 0;
  if (pad >= 1 && pad <= 16 && plain.subarray(plain.length - pad).every((byte) => byte === pad)) return plain.subarray(0, plain.length - pad);
  return plain;
}

export function aesCbcNoPadding(mode: 'encrypt' | 'decrypt', key: Uint8Array, iv: Uint8Array, data: Uint8Array): Uint8Array {
  const bits = key.length * 8;
  const cipher = mode === 'encrypt' ? createCipheriv(`aes-${bits}-cbc`, key, iv) : createDecipheriv(`aes-${bits}-cbc`, key, iv);
  cipher.setAutoPadding(false);
  return Buffer.concat([cipher.update(data), cipher.final()]);
}

export function hash(algorithm: 'md5' | 'sha256' | 'sha384' | 'sha512', ...parts: Uint8Array[]): Buffer {
  const digest = createHash(algorithm);
  for (const part of parts) digest.update(part);
  return digest.digest();
}
