import type { Layer } from './redaction-catalog.js';

export interface ExemptionDefinition {
  code: string;
  name: string;
  description: string;
  /** The redaction layer the exemption is applied on; null where no layer of its own exists ((b)(8), (b)(9)). */
  layer: Layer | null;
}

/** 5 U.S.C. § 552(b): seeded into every organization as read-only exemptions. */
export const FEDERAL_EXEMPTIONS: readonly ExemptionDefinition[] = [
  { code: '(b)(1)', name: 'National security', description: 'Classified national defense or foreign policy information', layer: 'B1' },
  { code: '(b)(2)', name: 'Internal agency rules', description: 'Related solely to internal personnel rules and practices of an agency', layer: 'B2' },
  { code: '(b)(3)', name: 'Statutory exemption', description: 'Specifically exempted from disclosure by another federal statute', layer: 'B3' },
  { code: '(b)(4)', name: 'Confidential business information', description: 'Trade secrets and privileged or confidential commercial or financial information', layer: 'B4' },
  { code: '(b)(5)', name: 'Privileged communications', description: 'Inter- or intra-agency memoranda or letters protected by a legal privilege', layer: 'B5' },
  {
    code: '(b)(6)',
    name: 'Personal privacy',
    description: 'Personnel, medical and similar files whose release would be a clearly unwarranted invasion of personal privacy',
    layer: 'B6',
  },
  {
    code: '(b)(7)',
    name: 'Law enforcement',
    description: 'Records or information compiled for law enforcement purposes, to the extent release would cause a harm in (A)–(F)',
    layer: 'B7',
  },
  { code: '(b)(7)(A)', name: 'Enforcement proceedings', description: 'Could reasonably be expected to interfere with enforcement proceedings', layer: 'B7' },
  { code: '(b)(7)(B)', name: 'Fair trial', description: 'Would deprive a person of a right to a fair trial or an impartial adjudication', layer: 'B7' },
  { code: '(b)(7)(C)', name: 'Law enforcement privacy', description: 'Could reasonably be expected to constitute an unwarranted invasion of personal privacy', layer: 'B7' },
  {
    code: '(b)(7)(D)',
    name: 'Confidential source',
    description: 'Could reasonably be expected to disclose the identity of a confidential source, or information it furnished',
    layer: 'B7',
  },
  {
    code: '(b)(7)(E)',
    name: 'Techniques and procedures',
    description: 'Would disclose techniques, procedures or guidelines for law enforcement investigations or prosecutions',
    layer: 'B7',
  },
  { code: '(b)(7)(F)', name: 'Physical safety', description: 'Could reasonably be expected to endanger the life or physical safety of any individual', layer: 'B7' },
  {
    code: '(b)(8)',
    name: 'Financial institutions',
    description: 'Contained in or related to examination, operating or condition reports about financial institutions',
    layer: null,
  },
  { code: '(b)(9)', name: 'Geological information', description: 'Geological and geophysical information and data, including maps, concerning wells', layer: null },
];
