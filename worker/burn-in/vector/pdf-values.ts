import { PDFArray, PDFDict, PDFName, PDFNumber, PDFRef, type PDFContext, type PDFObject } from 'pdf-lib';

// Reading pdf-lib objects without trusting their types: a wrong type reads as absent.

export function resolved(context: PDFContext, object: PDFObject | undefined): PDFObject | undefined {
  return object instanceof PDFRef ? context.lookup(object) : object;
}

export function dictAt(context: PDFContext, dict: PDFDict | undefined, key: string): PDFDict | undefined {
  const value = resolved(context, dict?.get(PDFName.of(key)));
  return value instanceof PDFDict ? value : undefined;
}

export function arrayAt(context: PDFContext, dict: PDFDict | undefined, key: string): PDFArray | undefined {
  const value = resolved(context, dict?.get(PDFName.of(key)));
  return value instanceof PDFArray ? value : undefined;
}

export function numberOf(context: PDFContext, object: PDFObject | undefined): number | undefined {
  const value = resolved(context, object);
  return value instanceof PDFNumber ? value.asNumber() : undefined;
}

export function numberAt(context: PDFContext, dict: PDFDict | undefined, key: string): number | undefined {
  return numberOf(context, dict?.get(PDFName.of(key)));
}

export function nameOf(context: PDFContext, object: PDFObject | undefined): string | undefined {
  const value = resolved(context, object);
  return value instanceof PDFName ? value.decodeText() : undefined;
}

export function nameAt(context: PDFContext, dict: PDFDict | undefined, key: string): string | undefined {
  return nameOf(context, dict?.get(PDFName.of(key)));
}

/** An array of numbers (each may be a reference); undefined when any item is not a number. */
export function numbersOf(context: PDFContext, array: PDFArray | undefined): number[] | undefined {
  if (!array) return undefined;
  const numbers: number[] = [];
  for (const item of array.asArray()) {
    const value = numberOf(context, item);
    if (value === undefined) return undefined;
    numbers.push(value);
  }
  return numbers;
}

/** [x1, y1, x2, y2] normalised so x1 ≤ x2 and y1 ≤ y2. */
export function rectAt(context: PDFContext, dict: PDFDict | undefined, key: string): { x1: number; y1: number; x2: number; y2: number } | undefined {
  const numbers = numbersOf(context, arrayAt(context, dict, key));
  if (!numbers || numbers.length !== 4) return undefined;
  const [a, b, c, d] = numbers as [number, number, number, number];
  return { x1: Math.min(a, c), y1: Math.min(b, d), x2: Math.max(a, c), y2: Math.max(b, d) };
}
