import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { rewriteContent } from '../../worker/burn-in/vector/interpret.js';
import { operandBytes } from '../../worker/burn-in/vector/serialize.js';
import { ContentSyntaxError, parseContent, type Operand } from '../../worker/burn-in/vector/tokens.js';

// The content-stream lexer: every token kind read to the right value, and content written back byte for byte.

const latin1 = (text: string) => Buffer.from(text, 'latin1');
const str = (operand: Operand | undefined) => (operand?.type === 'string' ? Buffer.from(operand.bytes).toString('latin1') : `not a string: ${JSON.stringify(operand)}`);

describe('content tokenizer', () => {
  it('reads numbers, names with #xx, keywords, arrays and dictionaries', () => {
    const ops = parseContent(latin1('1 -2.5 .5 +3 4. -.25 cm\n/Name#20With#2Fslash /A#42 true false null 7 XX\n[1 (a) /b [2]] << /Key [1 2] /Nested << /X 1 >> >> BDC % a comment ) ( ]\nQ'));
    expect(ops.map((op) => op.operator)).toEqual(['cm', 'XX', 'BDC', 'Q']);
    expect(ops[0]?.operands).toEqual([1, -2.5, 0.5, 3, 4, -0.25].map((value) => ({ type: 'number', value })));
    expect(ops[1]?.operands).toEqual([
      { type: 'name', value: 'Name With/slash' },
      { type: 'name', value: 'AB' },
      { type: 'boolean', value: true },
      { type: 'boolean', value: false },
      { type: 'null' },
      { type: 'number', value: 7 },
    ]);
    const [array, dict] = ops[2]?.operands ?? [];
    expect(array?.type === 'array' && array.items.map((item) => item.type)).toEqual(['number', 'string', 'name', 'array']);
    expect(dict?.type === 'dict' && [...dict.entries.keys()]).toEqual(['Key', 'Nested']);
  });

  it('reads literal strings with escapes, nesting and line continuations, and hex strings', () => {
    const ops = parseContent(latin1('(a\\(b\\)c (nested (deep)) \\101\\60\\0012 \\n\\r\\t\\b\\f\\\\ \\q) Tj (line\\\r\ncontinued\r\nnormalised) Tj <48 65 6C6c 6F> Tj <414> Tj <> Tj'));
    expect(ops.map((op) => op.operator)).toEqual(['Tj', 'Tj', 'Tj', 'Tj', 'Tj']);
    expect(str(ops[0]?.operands[0])).toBe('a(b)c (nested (deep)) A0\u00012 \n\r\t\b\f\\ q');
    expect(str(ops[1]?.operands[0])).toBe('linecontinued\nnormalised');
    expect(str(ops[2]?.operands[0])).toBe('Hello');
    expect(ops[2]?.operands[0]).toMatchObject({ hex: true });
    expect(str(ops[3]?.operands[0])).toBe('A@');
    expect(str(ops[4]?.operands[0])).toBe('');
  });

  it('keeps inline images whole: data with EI inside, found by its exact length or by what follows', () => {
    // Unfiltered 4×2 grey: 8 bytes of data that happen to spell " EI " and a binary byte.
    const exact = latin1('q BI /W 4 /H 2 /BPC 8 /CS /G ID \u0000 EI \u00ff\u0001\u0002 EI Q');
    const exactOps = parseContent(exact);
    expect(exactOps.map((op) => op.operator)).toEqual(['q', 'BI', 'Q']);
    expect(exactOps[1]?.image?.get('W')).toEqual({ type: 'number', value: 4 });
    expect(exact.subarray(exactOps[1]?.start, exactOps[1]?.end).toString('latin1')).toBe('BI /W 4 /H 2 /BPC 8 /CS /G ID \u0000 EI \u00ff\u0001\u0002 EI');
    // Filtered data: an "EI" followed by binary bytes is data, the one followed by content ends the image.
    const filtered = latin1('BI /W 10 /H 10 /BPC 1 /IM true /F /AHx /D [1 0] ID 12 EI \u0080\u0081 ab EI\nBT ET');
    const filteredOps = parseContent(filtered);
    expect(filteredOps.map((op) => op.operator)).toEqual(['BI', 'BT', 'ET']);
    expect(filtered.subarray(filteredOps[0]?.start, filteredOps[0]?.end).toString('latin1')).toMatch(/ab EI$/);
    expect(filteredOps[0]?.image?.get('D')).toEqual({ type: 'array', items: [{ type: 'number', value: 1 }, { type: 'number', value: 0 }] });
  });

  it('reads an inline image whose decode parameters are a dictionary (CCITT masks: /DP << /K -1 /Columns 8 >>)', () => {
    const bytes = latin1('q BI /IM true /W 8 /H 2 /BPC 1 /D[1\n0] /F/CCF /DP<</K -1\n/Columns 8>> ID &\u0090\u0001 EI Q');
    const ops = parseContent(bytes);
    expect(ops.map((op) => op.operator)).toEqual(['q', 'BI', 'Q']);
    const parms = ops[1]?.image?.get('DP');
    expect(parms?.type).toBe('dict');
    if (parms?.type === 'dict') expect(parms.entries.get('Columns')).toEqual({ type: 'number', value: 8 });
  });

  it('rejects what cannot be read safely', () => {
    for (const broken of ['(unterminated Tj', '[1 2 TJ', '1 2 ] TJ', '<< /A 1 BDC', '<4G> Tj', 'BI /W 1 ID xxx', ') Tj']) {
      expect(() => parseContent(latin1(broken)), broken).toThrow(ContentSyntaxError);
    }
  });

  it('serialises operands so that they read back the same', () => {
    const source = latin1('[(a\\)b\\\\c\r\n) <00ff> /N#23ame 3.25 -0.0001 [true null] << /K (v) >>] XX');
    const [operation] = parseContent(source);
    const written = Buffer.concat([Buffer.from(operandBytes(operation?.operands[0] as Operand)), latin1(' XX')]);
    const [reread] = parseContent(written);
    expect(reread?.operands).toEqual(operation?.operands);
  });

  it('writes unchanged content back byte for byte, inside one q … Q', async () => {
    const doc = await PDFDocument.create();
    const content = latin1(
      '%PDF content with comments\r\n0.5 0 0 RG 2 w 10 10 m 200 10 l S\nq 1 0 0 1 5 5 cm BI /W 2 /H 1 /BPC 8 /CS /G ID \u00ff\u0000 EI Q\n/Span BMC (no font needed outside text) pop EMC\t\f\u0000 [1 2] 0 d',
    );
    const result = rewriteContent(doc.context, undefined, content, { areas: [], visible: { x1: 0, y1: 0, x2: 612, y2: 792 } });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(Buffer.from(result.content).equals(Buffer.concat([latin1('q\n'), content, latin1('\nQ\n')]))).toBe(true);
    expect(result.removedGlyphs).toBe(0);
  });

  it('closes what the content left open and drops a Q without its q', async () => {
    const doc = await PDFDocument.create();
    const result = rewriteContent(doc.context, undefined, latin1('Q q q 1 0 0 1 9 9 cm BT'), { areas: [], visible: { x1: 0, y1: 0, x2: 612, y2: 792 } });
    expect(result.ok && Buffer.from(result.content).toString('latin1')).toBe('q\n q q 1 0 0 1 9 9 cm BT\nET\nQ\nQ\nQ\n');
  });
});
