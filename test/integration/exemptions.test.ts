import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEDERAL_EXEMPTIONS } from '../../main/common/exemptions.js';
import { Exemption } from '../../main/common/schemas/exemptions.js';
import { RedactionTemplate } from '../../main/common/schemas/templates.js';
import { startInstance, type TestInstance } from '../helpers/instance.js';
import { auditOf, dataOf, detailFields, errorOf, eventsOf, keyOf, pageOf } from '../helpers/integration-support.js';

let instance: TestInstance;

beforeAll(async () => {
  instance = await startInstance({ config: { rateLimits: { enabled: false } } });
});
afterAll(() => instance.close());

const request = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown, key?: string) =>
  instance.request({ method, url: `/api/v1${url}`, ...(body !== undefined && { body }), ...(key && { key }) });

async function listAll(key?: string): Promise<Exemption[]> {
  return pageOf(await request('GET', '/exemptions?limit=100', undefined, key), Exemption).data;
}

const STATE_EXEMPTION = {
  code: 'RCW 42.56.230(3)',
  name: 'Taxpayer information',
  description: 'Information required of any taxpayer in connection with the assessment or collection of any tax',
  layer: 'B3',
  jurisdiction: 'Washington State',
};

describe('federal exemptions', () => {
  it('every organization has (b)(1)–(b)(9) with (b)(7)(A)–(F), each with a description and its layer, read-only', async () => {
    for (const org of [0, 1]) {
      const federal = (await listAll(keyOf(instance, org))).filter((item) => item.built_in);
      expect(federal.map((item) => item.code)).toEqual([
        '(b)(1)', '(b)(2)', '(b)(3)', '(b)(4)', '(b)(5)', '(b)(6)', '(b)(7)',
        '(b)(7)(A)', '(b)(7)(B)', '(b)(7)(C)', '(b)(7)(D)', '(b)(7)(E)', '(b)(7)(F)', '(b)(8)', '(b)(9)',
      ]);
      for (const [index, item] of federal.entries()) {
        const definition = FEDERAL_EXEMPTIONS[index]!;
        expect(item).toMatchObject({ code: definition.code, name: definition.name, description: definition.description, layer: definition.layer, jurisdiction: 'federal' });
        expect(item.description.length).toBeGreaterThan(20);
      }
      expect(federal.find((item) => item.code === '(b)(6)')?.layer).toBe('B6');
      expect(federal.filter((item) => item.code.startsWith('(b)(7)')).every((item) => item.layer === 'B7')).toBe(true);
      expect(federal.filter((item) => item.layer === null).map((item) => item.code)).toEqual(['(b)(8)', '(b)(9)']);
    }
  });

  it('filters by layer', async () => {
    const b7 = pageOf(await request('GET', '/exemptions?layer=B7'), Exemption).data;
    expect(b7.map((item) => item.code)).toEqual(['(b)(7)', '(b)(7)(A)', '(b)(7)(B)', '(b)(7)(C)', '(b)(7)(D)', '(b)(7)(E)', '(b)(7)(F)']);
    errorOf(await request('GET', '/exemptions?layer=B9'), 400, 'validation_error');
  });

  it('cannot be changed or deleted (409)', async () => {
    const b6 = (await listAll()).find((item) => item.code === '(b)(6)');
    errorOf(await request('PATCH', `/exemptions/${b6?.id}`, { description: 'changed' }), 409, 'conflict');
    errorOf(await request('DELETE', `/exemptions/${b6?.id}`), 409, 'conflict');
    expect(dataOf(await request('GET', `/exemptions/${b6?.id}`), Exemption)).toEqual(b6);
  });
});

describe("an organization's own exemptions", () => {
  it('create, read, update, delete (state law); events and audit records', async () => {
    const created = dataOf(await request('POST', '/exemptions', STATE_EXEMPTION), Exemption, 201);
    expect(created).toMatchObject({ ...STATE_EXEMPTION, built_in: false });
    expect(dataOf(await request('GET', `/exemptions/${created.id}`), Exemption)).toEqual(created);
    expect((await listAll()).map((item) => item.id)).toContain(created.id);
    expect((await listAll(keyOf(instance, 1))).map((item) => item.id)).not.toContain(created.id);
    errorOf(await request('GET', `/exemptions/${created.id}`, undefined, keyOf(instance, 1)), 404, 'resource_not_found');

    const updated = dataOf(await request('PATCH', `/exemptions/${created.id}`, { layer: null, name: 'Taxpayer records' }), Exemption);
    expect(updated).toMatchObject({ layer: null, name: 'Taxpayer records', code: STATE_EXEMPTION.code });
    expect((await request('DELETE', `/exemptions/${created.id}`)).statusCode).toBe(204);
    errorOf(await request('GET', `/exemptions/${created.id}`), 404, 'resource_not_found');

    const events = await eventsOf(instance, 'exemption', created.id);
    expect(events.map((event) => event.type)).toEqual(['exemption.created', 'exemption.updated', 'exemption.deleted']);
    expect(events[1]?.payload).toEqual({ exemption: updated, changed: ['name', 'layer'] });
    expect((await auditOf(instance, 'exemption', created.id)).map((row) => row.action)).toEqual(['exemption.create', 'exemption.update', 'exemption.delete']);
  });

  it('codes are unique in the organization (409), including against the federal codes', async () => {
    dataOf(await request('POST', '/exemptions', { ...STATE_EXEMPTION, code: 'Local 1' }), Exemption, 201);
    errorOf(await request('POST', '/exemptions', { ...STATE_EXEMPTION, code: 'local 1' }), 409, 'conflict');
    errorOf(await request('POST', '/exemptions', { ...STATE_EXEMPTION, code: '(b)(6)' }), 409, 'conflict');
    dataOf(await request('POST', '/exemptions', { ...STATE_EXEMPTION, code: 'Local 1' }, keyOf(instance, 1)), Exemption, 201);
  });

  it.each([
    ['a layer that does not exist', { ...STATE_EXEMPTION, code: 'x1', layer: 'B8' }, 'layer'],
    ['the federal jurisdiction', { ...STATE_EXEMPTION, code: 'x2', jurisdiction: 'Federal' }, 'jurisdiction'],
    ['no code', { ...STATE_EXEMPTION, code: '' }, 'code'],
  ])('refuses %s with 400', async (_label, body, field) => {
    expect(detailFields(errorOf(await request('POST', '/exemptions', body), 400, 'validation_error'))).toContain(field);
  });

  it('an exemption used by a template cannot be deleted (409) until the template lets go of it', async () => {
    const exemption = dataOf(await request('POST', '/exemptions', { ...STATE_EXEMPTION, code: 'In use' }), Exemption, 201);
    const template = dataOf(
      await request('POST', '/templates', { name: 'Taxpayer ids', custom_terms: ['taxpayer'], exemption_id: exemption.id }),
      RedactionTemplate,
      201,
    );
    errorOf(await request('DELETE', `/exemptions/${exemption.id}`), 409, 'conflict');
    dataOf(await request('PATCH', `/templates/${template.id}`, { exemption_id: null }), RedactionTemplate);
    expect((await request('DELETE', `/exemptions/${exemption.id}`)).statusCode).toBe(204);
  });
});
