import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Exemption } from '../../main/common/schemas/exemptions.js';
import { Job } from '../../main/common/schemas/jobs.js';
import { RedactionTemplate } from '../../main/common/schemas/templates.js';
import { upsertDocumentPage } from '../../main/db/queries/document-pages.js';
import { startScheduler, type JobScheduler } from '../../main/jobs/scheduler.js';
import { startInstance, type TestInstance } from '../helpers/instance.js';
import { auditOf, dataOf, detailFields, errorOf, eventsOf, keyOf, orgId, pageOf } from '../helpers/integration-support.js';
import { newDocument } from '../helpers/v1-redactions-support.js';

let instance: TestInstance;
let exemptions: Exemption[];

beforeAll(async () => {
  instance = await startInstance({ config: { rateLimits: { enabled: false } } });
  exemptions = pageOf(await instance.request({ method: 'GET', url: '/api/v1/exemptions?limit=100' }), Exemption).data;
});
afterAll(() => instance.close());

const request = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown, key?: string) =>
  instance.request({ method, url: `/api/v1${url}`, ...(body !== undefined && { body }), ...(key && { key }) });

const exemptionId = (code: string) => {
  const found = exemptions.find((item) => item.code === code);
  if (!found) throw new Error(`no exemption ${code}`);
  return found.id;
};

let names = 0;
async function createTemplate(body: Record<string, unknown>): Promise<RedactionTemplate> {
  names += 1;
  return dataOf(await request('POST', '/templates', { name: `Template ${names}`, ...body }), RedactionTemplate, 201);
}

describe('templates', () => {
  it('create, read, list, update, delete; the layer follows the exemption; events and audit records', async () => {
    const template = await createTemplate({
      name: 'Personal identifiers',
      description: 'SSNs, phones and our case officer names',
      entity_kinds: ['ssn', 'phone', 'ssn'],
      custom_terms: ['Officer Alvarez'],
      patterns: [{ name: 'badge', regex: 'BADGE-\\d{4}', flags: 'i' }],
      exemption_id: exemptionId('(b)(6)'),
    });
    expect(template).toMatchObject({
      name: 'Personal identifiers',
      entity_kinds: ['ssn', 'phone'],
      custom_terms: ['Officer Alvarez'],
      patterns: [{ name: 'badge', regex: 'BADGE-\\d{4}', flags: 'i' }],
      layer: 'B6',
      exemption: { id: exemptionId('(b)(6)'), code: '(b)(6)' },
    });
    expect(dataOf(await request('GET', `/templates/${template.id}`), RedactionTemplate)).toEqual(template);
    expect(pageOf(await request('GET', '/templates'), RedactionTemplate).data.map((item) => item.id)).toContain(template.id);

    // A new exemption without a layer moves the template to that exemption's layer.
    const moved = dataOf(await request('PATCH', `/templates/${template.id}`, { exemption_id: exemptionId('(b)(7)(C)') }), RedactionTemplate);
    expect(moved).toMatchObject({ layer: 'B7', exemption: { code: '(b)(7)(C)' }, custom_terms: ['Officer Alvarez'] });
    expect((await request('DELETE', `/templates/${template.id}`)).statusCode).toBe(204);
    errorOf(await request('GET', `/templates/${template.id}`), 404, 'resource_not_found');

    const events = await eventsOf(instance, 'template', template.id);
    expect(events.map((event) => event.type)).toEqual(['template.created', 'template.updated', 'template.deleted']);
    expect(events[1]?.payload).toEqual({ template: moved, changed: ['layer', 'exemption_id'] });
    expect((await auditOf(instance, 'template', template.id)).map((row) => row.action)).toEqual(['template.create', 'template.update', 'template.delete']);
  });

  it('an explicit layer without an exemption; a layer for an exemption that has none ((b)(8))', async () => {
    expect((await createTemplate({ custom_terms: ['x'], layer: 'B5' })).exemption).toBeNull();
    expect(await createTemplate({ custom_terms: ['x'], layer: 'B4', exemption_id: exemptionId('(b)(8)') })).toMatchObject({ layer: 'B4', exemption: { code: '(b)(8)' } });
  });

  it.each([
    ['nothing to look for', { layer: 'B6' }, 'entity_kinds'],
    ['no layer and no exemption', { custom_terms: ['x'] }, 'layer'],
    ['an exemption without a layer and no layer', { custom_terms: ['x'], exemption_id: '(b)(8)' }, 'layer'],
    ['a layer the exemption does not belong to', { custom_terms: ['x'], layer: 'B5', exemption_id: '(b)(6)' }, 'layer'],
    ['layer B1 (needs a classification level)', { custom_terms: ['x'], layer: 'B1' }, 'layer'],
    ['an exemption on B1', { custom_terms: ['x'], exemption_id: '(b)(1)' }, 'layer'],
    ['an unknown entity kind', { entity_kinds: ['horoscope'], layer: 'B6' }, 'entity_kinds.0'],
    ['a regex that does not compile', { patterns: [{ name: 'p', regex: '(unclosed' }], layer: 'B6' }, 'patterns.0.regex'],
    ['a regex matching the empty string', { patterns: [{ name: 'p', regex: '\\d*' }], layer: 'B6' }, 'patterns.0.regex'],
    ['a regex RE2 cannot run (lookbehind)', { patterns: [{ name: 'p', regex: '(?<!x)y' }], layer: 'B6' }, 'patterns.0.regex'],
    ['a flag detection cannot use', { patterns: [{ name: 'p', regex: 'x', flags: 'g' }], layer: 'B6' }, 'patterns.0.flags'],
    ['two patterns with one name', { patterns: [{ name: 'p', regex: 'x' }, { name: 'p', regex: 'y' }], layer: 'B6' }, 'patterns.1.name'],
  ])('refuses %s with 400 naming the field', async (_label, body, field) => {
    const withIds = 'exemption_id' in body ? { ...body, exemption_id: exemptionId(String(body.exemption_id)) } : body;
    const error = errorOf(await request('POST', '/templates', { name: 'Invalid', ...withIds }), 400, 'validation_error');
    expect(detailFields(error)).toContain(field);
  });

  it('an unknown exemption → 404; one of another organization → 404', async () => {
    errorOf(await request('POST', '/templates', { name: 'Lost', custom_terms: ['x'], exemption_id: '99999999' }), 404, 'resource_not_found');
    const foreign = pageOf(await request('GET', '/exemptions', undefined, keyOf(instance, 1)), Exemption).data[0];
    errorOf(await request('POST', '/templates', { name: 'Lost', custom_terms: ['x'], exemption_id: foreign?.id }), 404, 'resource_not_found');
  });

  it('names are unique in the organization (409); templates of another organization are invisible', async () => {
    const template = await createTemplate({ name: 'Unique name', custom_terms: ['x'], layer: 'B6' });
    errorOf(await request('POST', '/templates', { name: 'UNIQUE NAME', custom_terms: ['y'], layer: 'B6' }), 409, 'conflict');
    errorOf(await request('GET', `/templates/${template.id}`, undefined, keyOf(instance, 1)), 404, 'resource_not_found');
    expect(pageOf(await request('GET', '/templates', undefined, keyOf(instance, 1)), RedactionTemplate).data).toEqual([]);
  });
});

describe('templates in detection jobs', () => {
  let scheduler: JobScheduler;
  beforeAll(() => {
    scheduler = startScheduler(instance.runtime, { poolSize: 1 });
  });
  afterAll(() => scheduler.stop());

  async function waitForJob(id: string): Promise<Job> {
    for (let attempt = 0; attempt < 200; attempt += 1) {
      const job = dataOf(await request('GET', `/jobs/${id}`), Job);
      if (job.status === 'completed' || job.status === 'failed') return job;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`job ${id} did not finish`);
  }

  it('template_id runs the stored template: its terms and patterns, on its layer, with its exemption as the reason', async () => {
    const documentId = await newDocument(instance);
    const text = 'Interview with Officer Alvarez badge-0042 on Tuesday';
    let x = 72;
    const words = text.split(' ').map((word) => {
      const box = { text: word, x1: x, y1: 700, x2: x + word.length * 6, y2: 712, confidence: 100 };
      x += word.length * 6 + 4;
      return box;
    });
    await upsertDocumentPage(instance.runtime.db, {
      organization_id: orgId(instance),
      document_id: Number(documentId),
      page_number: 1,
      source: 'text_layer',
      job_id: null,
      unit: 'pdf_points',
      width: 612,
      height: 792,
      rotation: 0,
      text,
      words: JSON.stringify(words),
      mean_confidence: null,
      created_at: new Date().toISOString(),
    });
    const template = await createTemplate({
      name: 'Officers and badges',
      custom_terms: ['Officer Alvarez'],
      patterns: [{ name: 'badge', regex: 'BADGE-\\d{4}', flags: 'i' }],
      exemption_id: exemptionId('(b)(7)(C)'),
    });

    const started = await request('POST', `/documents/${documentId}/detection-jobs`, { template_id: template.id });
    const job = await waitForJob(dataOf(started, Job, 202).id);
    expect(job.status, job.error_message ?? '').toBe('completed');
    expect(job.result).toMatchObject({ template: 'Officers and badges', entity_kinds: [] });
    const byEntity = (job.result as { by_entity: Record<string, number> }).by_entity;
    expect(byEntity).toEqual({ custom_term: 1, custom_pattern: 1 });
    const suggestions = (job.result as { suggestions: { layer: string }[] }).suggestions;
    expect(suggestions.length).toBeGreaterThanOrEqual(2);
    expect(suggestions.every((suggestion) => suggestion.layer === 'B7')).toBe(true);
    const stored = await instance.runtime.db.selectFrom('redactions').select(['layer', 'reason', 'state']).where('document_id', '=', Number(documentId)).execute();
    expect(stored.length).toBe(suggestions.length);
    expect(stored.every((row) => row.layer === 'B7' && row.reason === '(b)(7)(C)' && row.state === 'pending')).toBe(true);

    const unknown = errorOf(await request('POST', `/documents/${documentId}/detection-jobs`, { template_id: '99999999' }), 400, 'validation_error');
    expect(detailFields(unknown)).toEqual(['template_id']);
  });
});
