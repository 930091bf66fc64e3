// Builds worker/detection/address-format-data.ts from Google libaddressinput's published region data
// (Apache-2.0): `node --import tsx scripts/extract-address-formats.ts <libaddressinput>/testdata/countryinfo.txt`.
// Only per-country facts are kept: the address format, the postcode pattern and prefix, and the
// subdivision codes and names of countries whose format writes a state or province.
import fs from 'node:fs';
import path from 'node:path';

const [source] = process.argv.slice(2);
if (!source) throw new Error('usage: extract-address-formats.ts <countryinfo.txt>');
const rows: string[] = [];
for (const line of fs.readFileSync(source, 'utf8').split('\n')) {
  const match = /^data\/([A-Z]{2})=(\{.*\})$/.exec(line);
  if (!match) continue;
  const data = JSON.parse(match[2] as string) as Record<string, string>;
  if (!data.zip || !data.fmt) continue;
  const entry: Record<string, unknown> = { key: data.key, name: data.name, fmt: data.fmt, zip: data.zip };
  if (data.lfmt) entry.lfmt = data.lfmt;
  if (data.zipex) entry.zipex = data.zipex.split(',');
  if (data.postprefix) entry.prefix = data.postprefix;
  if (data.fmt.includes('%S') && data.sub_keys) {
    entry.states = data.sub_keys.split('~');
    if (data.sub_names) entry.stateNames = data.sub_names.split('~');
  }
  rows.push(`  ${JSON.stringify(entry)},`);
}
const out = path.resolve(import.meta.dirname, '..', 'worker', 'detection', 'address-format-data.ts');
fs.writeFileSync(
  out,
  `// Per-country address formats and postcode patterns from Google libaddressinput (Apache-2.0,
// github.com/google/libaddressinput testdata/countryinfo.txt at e20690c), extracted by
// scripts/extract-address-formats.ts. fmt: %A street, %C town, %S state, %Z postcode, %n line break.

export interface AddressFormat {
  key: string;
  name: string;
  fmt: string;
  /** The Latin-script format, where the local one differs. */
  lfmt?: string;
  zip: string;
  zipex?: string[];
  prefix?: string;
  states?: string[];
  stateNames?: string[];
}

export const ADDRESS_FORMATS: readonly AddressFormat[] = [
${rows.join('\n')}
];
`,
);
console.log(`${rows.length} countries -> ${out}`);
