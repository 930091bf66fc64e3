import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { checkCompoundFile } from '../../worker/intake/cfb-check.js';
import { parseMsg } from '../../worker/intake/email.js';
import { parseOle10Native, unwrapOleObject } from '../../worker/intake/ole-package.js';
import { writeMsg } from '../helpers/msg-writer.js';
import { writeCompoundFile } from '../helpers/msg-writer.js';
import { ole10Native, packageObject, removeOfficeFixtures } from '../helpers/office-fixtures.js';

// The \x01Ole10Native parser on packages written by the test helper (layout documented there) and on any
// bytes: it returns the wrapped file or throws an Error, never reads past the stream, never hangs.

afterAll(removeOfficeFixtures);

describe('Ole10Native packages', () => {
  it('reads the data and prefers the Unicode label; an ANSI-only package keeps the ANSI label', () => {
    const data = Buffer.from('%PDF-1.4 fake');
    expect(parseOle10Native(ole10Native('REPORT~1.PDF', data, { unicodeLabel: 'Rapport été.pdf' }))).toEqual({ label: 'Rapport été.pdf', bytes: data });
    expect(parseOle10Native(ole10Native('notes.txt', Buffer.from('hi')))).toEqual({ label: 'notes.txt', bytes: Buffer.from('hi') });
  });

  it('a label with a path keeps its last part; an object wrapping nothing known stays as it is', () => {
    const object = packageObject(ole10Native('C:\\Temp\\..\\plan.pdf', Buffer.from('x')));
    expect(unwrapOleObject('oleObject1.bin', object).file?.name).toBe('plan.pdf');
    expect(unwrapOleObject('oleObject2.bin', writeCompoundFile([{ name: 'Equation Native', bytes: Buffer.from('eq') }]))).toEqual({ file: null });
    expect(unwrapOleObject('oleObject3.bin', Buffer.from('not OLE at all'))).toEqual({ file: null });
  });

  it('every prefix of a valid package and arbitrary bytes either parse within bounds or throw an Error', () => {
    const valid = ole10Native('minutes.txt', Buffer.from('Minutes of the board'), { unicodeLabel: 'minutes.txt' });
    for (let length = 0; length < valid.length; length += 1) {
      let result: { bytes: Buffer } | undefined;
      try {
        result = parseOle10Native(valid.subarray(0, length));
      } catch (error) {
        expect(error).toBeInstanceOf(Error);
      }
      // Only the optional Unicode tail may be cut without an error.
      if (result) expect(result.bytes.toString()).toBe('Minutes of the board');
    }
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 512 }), (bytes) => {
        try {
          const { bytes: data } = parseOle10Native(Buffer.from(bytes));
          return data.length <= bytes.length;
        } catch (error) {
          return error instanceof Error;
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('a compound file whose directory chain loops is refused at once, not read forever (objects and .msg)', () => {
    const looped = (file: Buffer) => {
      // The directory's first sector (header 0x30) made to point to itself in the FAT (first FAT sector at 0x4C).
      const copy = Buffer.from(file);
      const dir = copy.readUInt32LE(0x30);
      copy.writeUInt32LE(dir, (copy.readUInt32LE(0x4c) + 1) * 512 + dir * 4);
      return copy;
    };
    const object = packageObject(ole10Native('plan.pdf', Buffer.from('%PDF-1.4')));
    expect(unwrapOleObject('oleObject1.bin', object).file?.name).toBe('plan.pdf');
    expect(unwrapOleObject('oleObject1.bin', looped(object))).toEqual({ file: null, warning: expect.stringMatching(/oleObject1\.bin is malformed.*directory chain/) });
    const msg = writeMsg({ subject: 'loop', senderName: 'x', senderAddress: 'x@example.org', recipients: [], body: 'loop' });
    // (msgreader itself is exercised on .msg files through the worker in intake-files.test.ts)
    expect(() => checkCompoundFile(msg)).not.toThrow();
    expect(() => parseMsg(looped(msg))).toThrow(/not a readable Outlook message.*directory chain/);
  });
});

